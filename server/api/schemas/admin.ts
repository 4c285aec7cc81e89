import { z } from "zod";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "@/server/auth/password-rules";
import { ROLES } from "../trpc";
import { dateRangeFields, listPageFields } from "./list-page";

// The length bounds up front; the service applies the rest of server/auth/password-rules.ts.
const passwordInput = z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`);

export const createUserInput = z.object({
  email: z.string().trim().min(1, "must not be empty"),
  name: z.string().trim().max(100, "must be at most 100 characters").optional(),
  password: passwordInput,
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
  /** Required: every new token expires, at most MAX_TOKEN_DAYS from now (checked by the service). */
  expiresAt: z.date({ message: "must be a date" }),
});

export const resetPasswordInput = z.object({
  userId: z.string().min(1, "must not be empty"),
  password: passwordInput.optional(),
});

export const changePasswordInput = z.object({
  currentPassword: z.string().min(1, "must not be empty").max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`),
  newPassword: passwordInput,
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

export const emailNotificationsInput = z.object({ enabled: z.boolean() });

export const slackNotificationsInput = z.object({ enabled: z.boolean(), slackUserId: z.string().max(40, "slackUserId: at most 40 characters") });

export const slackVerificationCodeInput = z.object({ code: z.string().max(20, "code: at most 20 characters") });
