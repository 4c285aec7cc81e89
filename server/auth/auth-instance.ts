import { betterAuth, type BetterAuthOptions } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import type { Db } from "@/server/persistence/db";
import { parseDatabaseUrl } from "@/server/persistence/database-url";
import { authSecret } from "./auth-secret";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./password-rules";
import { withHashedSessionTokens } from "./hashed-session-adapter";

export interface AuthSettings {
  readonly databaseUrl: string;
  readonly secret?: string;
  readonly baseUrl?: string;
}

/** The origin a request was addressed to, as the browser saw it. */
export function requestOrigin(request: Request): string {
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  if (!host) return new URL(request.url).origin;
  const protocol = request.headers.get("x-forwarded-proto") ?? new URL(request.url).protocol.replace(":", "");
  return `${protocol.split(",")[0]!.trim()}://${host.split(",")[0]!.trim()}`;
}

function createAuth(db: Db, settings: AuthSettings, secret: string) {
  return betterAuth({
    secret,
    baseURL: settings.baseUrl,
    // Sign-in is same-origin only: the origin the request was addressed to (behind a proxy, the one
    // it forwards), and the configured base URL.
    trustedOrigins: async (request) => [settings.baseUrl, request ? requestOrigin(request) : undefined],
    // Session tokens are stored hashed (server/auth/hashed-session-adapter.ts).
    database: (options: BetterAuthOptions) => withHashedSessionTokens(prismaAdapter(db, { provider: parseDatabaseUrl(settings.databaseUrl).provider === "postgres" ? "postgresql" : "sqlite" })(options)),
    // Accounts are created by admins (server/services/users), never by visitors.
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: MIN_PASSWORD_LENGTH, maxPasswordLength: MAX_PASSWORD_LENGTH },
    user: { additionalFields: { role: { type: "string", input: false }, disabled: { type: "boolean", input: false } } },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    databaseHooks: {
      session: {
        create: {
          // A disabled user cannot start a session, whatever their password.
          before: async (session) => {
            const user = await db.user.findUnique({ where: { id: session.userId }, select: { disabled: true } });
            return Boolean(user && !user.disabled);
          },
        },
      },
    },
    // Sign-in attempts are limited by server/auth/sign-in-limiter.ts, per email and per address.
    rateLimit: { enabled: false },
    advanced: {
      useSecureCookies: settings.baseUrl?.startsWith("https://") ?? false,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    telemetry: { enabled: false },
    // Sign-in outcomes go to the audit log; a missing base URL is expected (the request's origin is used).
    logger: { level: "error" },
  });
}

export type DualstateAuth = ReturnType<typeof createAuth>;

const globalForAuth = globalThis as unknown as { dualstateAuth?: Promise<DualstateAuth> };

/** The process-wide better-auth instance over the app's database. */
export function getAuth(db: Db, settings: AuthSettings): Promise<DualstateAuth> {
  globalForAuth.dualstateAuth ??= authSecret(db, settings.secret).then((secret) => createAuth(db, settings, secret));
  return globalForAuth.dualstateAuth;
}

/** A fresh instance (tests: one per database). */
export async function createAuthFor(db: Db, settings: AuthSettings): Promise<DualstateAuth> {
  return createAuth(db, settings, await authSecret(db, settings.secret));
}
