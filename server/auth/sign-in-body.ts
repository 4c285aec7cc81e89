import { readBoundedBody } from "../http/read-bounded-body";
import { accountEmailProblem, normalizeAccountEmail } from "./account-email";

/**
 * The body of a sign-in, read exactly once: JSON only, bounded in size, with the email normalised
 * the way better-auth looks it up. The limiter, better-auth and the audit log all get this one value.
 */
export interface SignInBody {
  /** Trimmed and lower-cased. */
  readonly email: string;
  readonly password: string;
  readonly rememberMe?: boolean;
}

export type SignInBodyResult = { readonly ok: true; readonly body: SignInBody } | { readonly ok: false; readonly status: number; readonly message: string; readonly code: string };

/** Far more than an email and a password need; more is refused before it is parsed. */
export const MAX_SIGN_IN_BODY_BYTES = 16 * 1024;
const MAX_EMAIL_CHARS = 320;
const MAX_PASSWORD_CHARS = 1024;

const refused = (status: number, code: string, message: string): SignInBodyResult => ({ ok: false, status, code, message });

async function readBounded(request: Request, maxBytes: number): Promise<string | null> {
  const body = await readBoundedBody(request.body, maxBytes);
  return body === null ? null : new TextDecoder("utf-8", { fatal: false }).decode(body);
}

export async function readSignInBody(request: Request): Promise<SignInBodyResult> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type !== "application/json") {
    return refused(415, "UNSUPPORTED_MEDIA_TYPE", `Send the email and password as JSON (Content-Type: application/json), not ${type ? "this content type" : "a body without a type"}`);
  }
  const text = await readBounded(request, MAX_SIGN_IN_BODY_BYTES);
  if (text === null) return refused(413, "BODY_TOO_LARGE", `The sign-in body must be at most ${MAX_SIGN_IN_BODY_BYTES} bytes`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return refused(400, "INVALID_BODY", "The sign-in body is not valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return refused(400, "INVALID_BODY", "The sign-in body must be a JSON object with email and password");
  const { email, password, rememberMe } = parsed as Record<string, unknown>;
  if (typeof email !== "string" || email.trim() === "" || email.length > MAX_EMAIL_CHARS) return refused(400, "INVALID_BODY", `email: must be a string of 1 to ${MAX_EMAIL_CHARS} characters`);
  if (typeof password !== "string" || password === "" || password.length > MAX_PASSWORD_CHARS) return refused(400, "INVALID_BODY", `password: must be a string of 1 to ${MAX_PASSWORD_CHARS} characters`);
  if (rememberMe !== undefined && typeof rememberMe !== "boolean") return refused(400, "INVALID_BODY", "rememberMe: must be true or false");
  // No account can have an address outside the account rule, so such a try is answered here, named,
  // and not counted toward the lockout (better-auth would refuse it with a bare INVALID_EMAIL).
  const normalized = normalizeAccountEmail(email);
  const problem = accountEmailProblem(normalized);
  if (problem) return refused(400, "INVALID_EMAIL", `email: ${problem}`);
  return { ok: true, body: { email: normalized, password, ...(rememberMe === undefined ? {} : { rememberMe }) } };
}
