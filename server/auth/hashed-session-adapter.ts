import { createHash } from "node:crypto";
import type { BetterAuthOptions } from "better-auth";
import type { DBAdapter, Where } from "better-auth/adapters";

/**
 * Session tokens are stored as their SHA-256, so a copy of the database does not hand out live
 * sessions: the cookie carries the token, the session table only its hash. This wraps better-auth's
 * database adapter: every token written to or looked up in the session table is hashed on the way
 * in, and a row found by its token is given back with the token it was looked up by (better-auth
 * sets the cookie from it when it refreshes a session). Rows found some other way (by user) carry
 * the hash, which no lookup accepts as a token.
 */
export const hashSessionToken = (token: string) => createHash("sha256").update(token).digest("hex");

type Row = Record<string, unknown>;

const isSessionModel = (model: string) => model === "session";

/** The where clause with token values hashed, and the raw token of each hash. */
function hashedWhere(where: readonly Where[] | undefined): { where: Where[] | undefined; rawOf: Map<string, string> } {
  const rawOf = new Map<string, string>();
  if (!where) return { where: undefined, rawOf };
  const hash = (value: unknown) => {
    if (typeof value !== "string") return value;
    const hashed = hashSessionToken(value);
    rawOf.set(hashed, value);
    return hashed;
  };
  const mapped = where.map((clause) => (clause.field !== "token" ? clause : { ...clause, value: (Array.isArray(clause.value) ? clause.value.map(hash) : hash(clause.value)) as Where["value"] }));
  return { where: mapped, rawOf };
}

function restoreToken<T>(row: T, rawOf: ReadonlyMap<string, string>): T {
  if (row === null || typeof row !== "object") return row;
  const token = (row as Row).token;
  const raw = typeof token === "string" ? rawOf.get(token) : undefined;
  return raw === undefined ? row : ({ ...(row as Row), token: raw } as T);
}

const hashedUpdate = (update: Record<string, unknown>) => (typeof update.token === "string" ? { ...update, token: hashSessionToken(update.token) } : update);

export function withHashedSessionTokens(adapter: DBAdapter<BetterAuthOptions>): DBAdapter<BetterAuthOptions> {
  return {
    ...adapter,
    create: async <T extends Record<string, unknown>, R = T>(input: Parameters<DBAdapter["create"]>[0] & { data: Omit<T, "id"> }): Promise<R> => {
      const raw = (input.data as Row).token;
      if (!isSessionModel(input.model) || typeof raw !== "string") return adapter.create<T, R>(input);
      const created = await adapter.create<T, R>({ ...input, data: { ...input.data, token: hashSessionToken(raw) } });
      return { ...(created as Row), token: raw } as R;
    },
    findOne: async (input) => {
      if (!isSessionModel(input.model)) return adapter.findOne(input);
      const { where, rawOf } = hashedWhere(input.where);
      return restoreToken(await adapter.findOne({ ...input, where: where! }), rawOf);
    },
    findMany: async <T>(input: Parameters<DBAdapter["findMany"]>[0]): Promise<T[]> => {
      if (!isSessionModel(input.model)) return adapter.findMany<T>(input);
      const { where, rawOf } = hashedWhere(input.where);
      return (await adapter.findMany<T>({ ...input, where })).map((row) => restoreToken(row, rawOf));
    },
    count: (input) => (isSessionModel(input.model) ? adapter.count({ ...input, where: hashedWhere(input.where).where }) : adapter.count(input)),
    update: async (input) => {
      if (!isSessionModel(input.model)) return adapter.update(input);
      const { where, rawOf } = hashedWhere(input.where);
      if (typeof input.update.token === "string") rawOf.set(hashSessionToken(input.update.token), input.update.token);
      return restoreToken(await adapter.update({ ...input, where: where!, update: hashedUpdate(input.update) }), rawOf);
    },
    updateMany: (input) => (isSessionModel(input.model) ? adapter.updateMany({ ...input, where: hashedWhere(input.where).where!, update: hashedUpdate(input.update) }) : adapter.updateMany(input)),
    delete: (input) => (isSessionModel(input.model) ? adapter.delete({ ...input, where: hashedWhere(input.where).where! }) : adapter.delete(input)),
    deleteMany: (input) => (isSessionModel(input.model) ? adapter.deleteMany({ ...input, where: hashedWhere(input.where).where! }) : adapter.deleteMany(input)),
    consumeOne: async (input) => {
      if (!isSessionModel(input.model)) return adapter.consumeOne(input);
      const { where, rawOf } = hashedWhere(input.where);
      return restoreToken(await adapter.consumeOne({ ...input, where: where! }), rawOf);
    },
    incrementOne: async (input) => {
      if (!isSessionModel(input.model)) return adapter.incrementOne(input);
      const { where, rawOf } = hashedWhere(input.where);
      return restoreToken(await adapter.incrementOne({ ...input, where: where! }), rawOf);
    },
    transaction: (callback) => adapter.transaction((inner) => callback(withHashedSessionTokens(inner as DBAdapter<BetterAuthOptions>) as typeof inner)),
  };
}
