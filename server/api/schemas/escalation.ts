import { z } from "zod";
import { LINE_COMMENT_LIMITS } from "@/server/review-comments/line-comment";
import { DECISIONS } from "@/server/services/escalations/decision-kinds";
import { ESCALATION_SORTS, ESCALATION_STATUSES, OFFERED_TO } from "@/server/services/escalations/list-escalations";
import { dateRangeFields, pageNumber, pageSize, searchText } from "./list-page";

const id = z.string().trim().min(1, "must not be empty");

export const listEscalationsInput = z
  .object({
    status: z.enum([...ESCALATION_STATUSES, "all"]).optional(),
    workflow: z.string().trim().min(1).optional(),
    step: z.string().trim().min(1).optional(),
    minAgeMinutes: z.number().nonnegative().optional(),
    maxAgeMinutes: z.number().nonnegative().optional(),
    sort: z.enum(ESCALATION_SORTS).optional(),
    offeredTo: z.enum(OFFERED_TO).optional(),
    limit: z.number().int().min(1).max(500).optional(),
    ...dateRangeFields,
    search: searchText.optional(),
    page: pageNumber.optional(),
    pageSize: pageSize.optional(),
  })
  .optional();

export const getEscalationInput = z.object({ id });
export const claimEscalationInput = z.object({ escalationId: id, steal: z.boolean().optional() });
export const assignEscalationInput = z.object({ escalationId: id, assignee: z.string().trim().max(320).nullable() });

/** A line comment submitted with a decision; whether it fits the artifact is checked by the service. */
const lineComment = z.object({
  line: z.number().int().min(1, "must be a line number from 1"),
  endLine: z.number().int().min(1, "must be a line number from 1").optional(),
  body: z.string().max(LINE_COMMENT_LIMITS.body, `must be at most ${LINE_COMMENT_LIMITS.body} characters`),
  suggestion: z.string().max(LINE_COMMENT_LIMITS.suggestion, `must be at most ${LINE_COMMENT_LIMITS.suggestion} characters`).optional(),
});

export const decideEscalationInput = z.object({
  escalationId: id,
  contentHash: z.string().regex(/^[0-9a-f]{64}$/, "must be the artifact's SHA-256 content hash (64 hex digits)"),
  decision: z.enum(DECISIONS),
  comment: z.string().max(20_000, "must be at most 20,000 characters").optional(),
  editedContent: z.string().max(1_000_000, "must be at most 1,000,000 characters").optional(),
  comments: z.array(lineComment).max(LINE_COMMENT_LIMITS.comments, `at most ${LINE_COMMENT_LIMITS.comments} comments go with one decision`).optional(),
});

export const nextPendingInput = z.object({ after: id.max(200).optional() });
