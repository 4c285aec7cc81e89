import { describe, expect, it } from "vitest";
import type { Db } from "@/server/persistence/db";
import { adminProcedure, createCallerFactory, createTRPCContext, createTRPCRouter, hasRole, permittedProcedure, reviewerProcedure, viewerProcedure, type Actor } from "./trpc";

const probe = createTRPCRouter({
  view: viewerProcedure.query(({ ctx }) => ctx.actor.email),
  review: reviewerProcedure.mutation(({ ctx }) => ctx.actor.role),
  admin: adminProcedure.mutation(() => "ok"),
  start: permittedProcedure("start_run").mutation(({ ctx }) => ctx.actor.email),
  audit: permittedProcedure("read_audit_log").query(() => "ok"),
});
const callerAs = (actor: Actor | null) => createCallerFactory(probe)(createTRPCContext({ db: {} as Db, actor }));
const person = (role: Actor["role"]): Actor => ({ id: `u-${role}`, email: `${role}@example.com`, role, via: "session" });

describe("role procedures", () => {
  it("orders the roles viewer < reviewer < admin", () => {
    expect(hasRole("admin", "reviewer")).toBe(true);
    expect(hasRole("reviewer", "reviewer")).toBe(true);
    expect(hasRole("viewer", "reviewer")).toBe(false);
    expect(hasRole("reviewer", "admin")).toBe(false);
  });

  it("refuses anonymous callers with UNAUTHORIZED", async () => {
    await expect(callerAs(null).view()).rejects.toMatchObject({ code: "UNAUTHORIZED", message: "Sign in first" });
  });

  it("refuses a role below the procedure's with FORBIDDEN, naming both", async () => {
    await expect(callerAs(person("viewer")).review()).rejects.toMatchObject({ code: "FORBIDDEN", message: "This needs the reviewer role; viewer@example.com is a viewer" });
    await expect(callerAs(person("reviewer")).admin()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("checks an action with the rule the dashboard shows (can), naming the role it needs", async () => {
    await expect(callerAs(person("viewer")).start()).rejects.toMatchObject({ code: "FORBIDDEN", message: "This needs the reviewer role; viewer@example.com is a viewer" });
    await expect(callerAs(null).start()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await callerAs(person("reviewer")).start()).toBe("reviewer@example.com");
    await expect(callerAs(person("reviewer")).audit()).rejects.toMatchObject({ code: "FORBIDDEN", message: "This needs the admin role; reviewer@example.com is a reviewer" });
    expect(await callerAs(person("admin")).audit()).toBe("ok");
  });

  it("lets the role and every higher one through, with the actor in the context", async () => {
    expect(await callerAs(person("viewer")).view()).toBe("viewer@example.com");
    expect(await callerAs(person("reviewer")).review()).toBe("reviewer");
    expect(await callerAs(person("admin")).review()).toBe("admin");
    expect(await callerAs(person("admin")).admin()).toBe("ok");
  });
});
