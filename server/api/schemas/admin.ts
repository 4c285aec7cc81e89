import { z } from "zod";
import { ROLES } from "../trpc";

export const createUserInput = z.object({
  email: z.string().trim().min(1, "must not be empty"),
  name: z.string().trim().max(100, "must be at most 100 characters").optional(),
  password: z.string().min(12, "must be at least 12 characters").max(200, "must be at most 200 characters"),
  role: z.enum(ROLES, { message: `must be one of ${ROLES.join(", ")}` }),
});

export const updateUserInput = z
  .object({
    userId: z.string().min(1, "must not be empty"),
    role: z.enum(ROLES, { message: `must be one of ${ROLES.join(", ")}` }).optional(),
    disabled: z.boolean().optional(),
  })
  .refine((change) => change.role !== undefined || change.disabled !== undefined, { message: "give role or disabled", path: ["role"] });

export const createTokenInput = z.object({
  userId: z.string().min(1, "must not be empty"),
  name: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
});

export const revokeTokenInput = z.object({ tokenId: z.string().min(1, "must not be empty") });

export const listAuditInput = z
  .object({
    action: z.string().trim().max(100).optional(),
    actorEmail: z.string().trim().max(200).optional(),
    limit: z.number().int().min(1).max(500).default(100),
    before: z.date().optional(),
  })
  .prefault({});
