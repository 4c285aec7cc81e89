/**
 * What a password must be, in one place: creating a user, the first admin (DUALSTATE_ADMIN_PASSWORD),
 * an admin's reset, a user's own change, and better-auth's own check all use these rules.
 */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

/** Why a password is refused, or null when it is acceptable. */
export function passwordProblem(password: string, owner?: { email?: string }): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (new Set(password).size < 4) return "must use at least 4 different characters";
  if (owner?.email && password.trim().toLowerCase() === owner.email.trim().toLowerCase()) return "must not be the email address";
  return null;
}
