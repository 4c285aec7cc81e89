import { z } from "zod";
import { DRY_RUN_MAX } from "@/server/services/routing/dry-run-routing";
import { ROUTING_LIMITS } from "@/server/review-policy/routing";

const id = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");
// Bounded here as well as by the parser, so an oversized request is refused before it is read twice.
const source = z.string().max(ROUTING_LIMITS.maxDocumentBytes, `must be at most ${ROUTING_LIMITS.maxDocumentBytes} characters`);
const description = z.string().max(500, "must be at most 500 characters");

export const createGroupInput = z.object({ name: z.string().trim().min(1, "must not be empty").max(64, "must be at most 64 characters"), description: description.optional() });
export const renameGroupInput = z.object({ groupId: id, name: z.string().trim().min(1, "must not be empty").max(64, "must be at most 64 characters"), description: description.nullable().optional() });
export const groupIdInput = z.object({ groupId: id });
export const addMemberInput = z.object({ groupId: id, email: z.string().trim().min(1, "must not be empty").max(320, "must be at most 320 characters") });
export const removeMemberInput = z.object({ groupId: id, userId: id });
export const groupChannelsInput = z.object({
  groupId: id,
  notifyEmail: z.boolean().optional(),
  notifySlack: z.boolean().optional(),
  slackWebhookUrl: z.string().max(500, "must be at most 500 characters").nullable().optional(),
  slackChannel: z.string().max(80, "must be at most 80 characters").nullable().optional(),
});

export const routingSourceInput = z.object({ source });
export const saveRoutingInput = z.object({ source, comment: z.string().max(ROUTING_LIMITS.maxCommentLength, `must be at most ${ROUTING_LIMITS.maxCommentLength} characters`).optional() });
export const routingVersionInput = z.object({ version: z.number().int().min(1).optional() }).optional();
export const dryRunInput = z.object({ source, count: z.number().int().min(1, "must be at least 1").max(DRY_RUN_MAX, `must be at most ${DRY_RUN_MAX}`).optional() });
