import { z } from "zod";
import { ROLES } from "../trpc";
import { dateRangeFields, listPageFields } from "./list-page";

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

/** The audit log page: search, who, what kind, when, and a page (bounds in ./list-page.ts). */
export const listAuditInput = z
  .object({
    ...listPageFields,
    ...dateRangeFields,
    action: z.string().trim().max(100, "must be at most 100 characters").regex(/^[a-z_.]*$/, "must be an action such as token or token.created").optional(),
    actor: z.string().trim().max(320, "must be at most 320 characters").optional(),
  })
  .prefault({});
