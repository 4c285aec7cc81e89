/**
 * The one rule for the email address of an account: the addresses the sign-in accepts.
 *
 * better-auth's sign-in refuses (400 INVALID_EMAIL) any address that zod's `z.email()` rejects, so
 * this rule is `z.email()` itself (the same zod package better-auth imports), bounded in length.
 * An account created with any other address could never sign in. The first admin
 * (DUALSTATE_ADMIN_EMAIL), Admin → Users and the sign-in form's body all use it.
 */
import { z } from "zod";

/** The first admin's address when DUALSTATE_ADMIN_EMAIL is unset (`.localhost` is a reserved TLD). */
export const DEFAULT_ADMIN_EMAIL = "admin@dualstate.localhost";

/** RFC 5321's limit for a forward path; also bounds the work of the regular expression. */
export const MAX_ACCOUNT_EMAIL_CHARS = 254;

const signInEmail = z.email();

/**
 * Why `email` (already trimmed) cannot be an account's address, or null when it can. The reason
 * never quotes the address: callers name the field, and the value may be hostile.
 */
export function accountEmailProblem(email: string): string | null {
  if (email.length === 0) return "must not be empty";
  if (email.length > MAX_ACCOUNT_EMAIL_CHARS) return `must be at most ${MAX_ACCOUNT_EMAIL_CHARS} characters`;
  if (signInEmail.safeParse(email).success) return null;
  const at = email.lastIndexOf("@");
  if (at <= 0 || at === email.length - 1) return "must be an email address such as ada@example.com";
  const domain = email.slice(at + 1);
  if (!domain.includes(".")) {
    return `needs a dot in its domain (the sign-in refuses an address such as admin@localhost); use a full domain, e.g. ${DEFAULT_ADMIN_EMAIL}`;
  }
  return "is not an address the sign-in accepts: use letters, digits and . _ ' + - before the @, and a domain such as example.com";
}

/** Trims and lower-cases, the way the sign-in looks accounts up. */
export function normalizeAccountEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The rule as a zod schema (environment, API input): normalised, with the problem as the message. */
export const accountEmailSchema = z
  .string()
  .transform(normalizeAccountEmail)
  .superRefine((email, context) => {
    const problem = accountEmailProblem(email);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });
