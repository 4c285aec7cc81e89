import { describe, expect, it } from "vitest";
import type { Db } from "@/server/persistence/db";
import { appRouter, createCaller } from "./root";
import { createTRPCContext, type Actor } from "./trpc";
import { handleTRPCRequest } from "./http-handler";

/** The only procedures anyone may call without signing in. */
const PUBLIC = new Set(["session.me"]);
/** The only mutations a viewer may call: on their own account. */
const OWN_ACCOUNT = new Set(["session.changePassword", "session.setEmailNotifications", "session.setSlackNotifications", "session.sendSlackVerificationCode", "session.confirmSlackVerificationCode"]);

const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>);
const person = (role: Actor["role"]): Actor => ({ id: `u-${role}`, email: `${role}@example.com`, role, via: "session" });

/** Calls a procedure by its dotted path; the role check runs before input parsing and any database access. */
function call(path: string, actor: Actor | null): Promise<unknown> {
  let target: unknown = createCaller(createTRPCContext({ db: {} as Db, actor }));
  for (const part of path.split(".")) target = (target as Record<string, unknown>)[part];
  return (target as (input?: unknown) => Promise<unknown>)({});
}

describe("access to every procedure", () => {
  it("lists the procedures it checks", () => {
    expect(procedures.length).toBeGreaterThan(10);
  });

  it.each(procedures.filter(([path]) => !PUBLIC.has(path)).map(([path]) => path))("%s refuses anonymous callers", async (path) => {
    await expect(call(path, null)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it.each(procedures.filter(([path, procedure]) => procedure._def.type === "mutation" && !OWN_ACCOUNT.has(path)).map(([path]) => path))("%s refuses viewers", async (path) => {
    await expect(call(path, person("viewer"))).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it.each(procedures.filter(([path]) => path.startsWith("admin.")).map(([path]) => path))("%s refuses reviewers", async (path) => {
    await expect(call(path, person("reviewer"))).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  // Reviewer groups and routing are admins' (except asking which groups you are in).
  it.each(procedures.filter(([path]) => (path.startsWith("routing.") || path.startsWith("groups.")) && path !== "groups.mine").map(([path]) => path))("%s refuses reviewers", async (path) => {
    await expect(call(path, person("reviewer"))).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("session.me answers who is asking, or null", async () => {
    expect(await createCaller(createTRPCContext({ db: {} as Db, actor: null })).session.me()).toBeNull();
    expect(await createCaller(createTRPCContext({ db: {} as Db, actor: person("reviewer") })).session.me()).toEqual(person("reviewer"));
  });
});

describe("mutations over HTTP", () => {
  const admin = async () => person("admin");
  const failDb = () => {
    throw new Error("the database must not be reached");
  };

  it.each(["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain"])("refuses a %s body with 415, before anything runs", async (type) => {
    const response = await handleTRPCRequest(new Request("http://localhost/api/trpc/run.create", { method: "POST", headers: { "content-type": type }, body: "a=1" }), failDb, admin);
    expect(response.status).toBe(415);
    expect(((await response.json()) as { error: { json: { message: string } } }).error.json.message).toMatch(/must be JSON \(Content-Type: application\/json\)/);
  });

  it("an anonymous JSON request gets 401 with a message, not a stack", async () => {
    const response = await handleTRPCRequest(
      new Request("http://localhost/api/trpc/run.cancel", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ json: { id: "r" } }) }),
      () => ({}) as Db,
      async () => null,
    );
    expect(response.status).toBe(401);
    const text = await response.text();
    expect(text).toContain("Sign in first");
    expect(text).not.toContain("stack");
  });
});
