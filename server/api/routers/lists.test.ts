import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { minimalWorkflowDefinition } from "@/server/workflows/definition/testing/minimal-workflow";
import { recordAuditEvent } from "@/server/services/audit/record-audit-event";
import { createTestCaller, TEST_DATABASES } from "../testing/test-caller";
import type { Actor } from "../trpc";

const VIEWER: Actor = { id: "viewer-1", email: "vic@example.com", role: "viewer", via: "session" };
const day = (iso: string) => new Date(`${iso}T12:00:00Z`);

for (const { provider, enabled } of TEST_DATABASES) {
  describe.runIf(enabled)(`search, filters and pages of the lists on ${provider}`, () => {
    let database: TestDatabase;
    let caller: ReturnType<typeof createTestCaller>;
    const runIds: string[] = [];

    /** A run of `workflow` created at `at`, stored as the engine would leave it. */
    async function seedRun(workflowVersionId: string, specification: string, status: "queued" | "failed" | "succeeded", at: Date) {
      const id = randomUUID();
      await database.db.run.create({ data: { id, workflowVersionId, specification, status, workflowState: {}, createdAt: at } });
      runIds.push(id);
      return id;
    }

    beforeAll(async () => {
      database = await createTestDatabase(provider);
      caller = createTestCaller(database.db);
      const lru = await caller.workflow.create({ definition: { ...minimalWorkflowDefinition("LRU-Cache"), description: "A cache that forgets the least recently used" } });
      const parser = await caller.workflow.create({ definition: minimalWorkflowDefinition("json-parser") });
      const lruVersion = (await database.db.workflowVersion.findFirstOrThrow({ where: { workflowId: lru.id } })).id;
      const parserVersion = (await database.db.workflowVersion.findFirstOrThrow({ where: { workflowId: parser.id } })).id;
      // 30 runs of the cache over 30 days, 5 of the parser; every third cache run failed.
      for (let index = 0; index < 30; index += 1) {
        await seedRun(lruVersion, `Write an LRU cache, variant ${index}`, index % 3 === 0 ? "failed" : "succeeded", day(`2026-10-${String(index + 1).padStart(2, "0")}`));
      }
      for (let index = 0; index < 5; index += 1) await seedRun(parserVersion, `Parse JSON 100% strictly (${index})`, "queued", day(`2026-11-0${index + 1}`));
      // An escalation on one failed cache run and one on a parser run.
      for (const runId of [runIds[0]!, runIds[31]!]) {
        const artifactId = randomUUID();
        await database.db.artifact.create({ data: { id: artifactId, runId, stepName: runId === runIds[0] ? "implement" : "parse", guardId: "security", attempt: 1, content: "x", contentHash: "0".repeat(64), passed: false, fatal: true, feedback: "spawns a process" } });
        await database.db.escalation.create({ data: { id: randomUUID(), runId, artifactId, stepName: runId === runIds[0] ? "implement" : "parse", guardId: "security", feedback: "spawns a process" } });
      }
      const admin = { id: "admin-1", email: "ada@example.com" };
      await recordAuditEvent(database.db, { actor: admin, action: "token.created", target: "token:t1", detail: { name: "CI", for: "bob@example.com" } });
      await recordAuditEvent(database.db, { actor: { id: null, email: "mallory@example.com" }, action: "sign_in.failed", target: "user:mallory@example.com", detail: { status: 401 } });
      await recordAuditEvent(database.db, { actor: admin, action: "escalation.decided", target: "escalation:e1", detail: { runId: runIds[0], decision: "approve" } });
    });
    afterAll(() => database?.dispose());

    describe("run.list", () => {
      it("pages newest first with the total, and pages never overlap", async () => {
        const first = await caller.run.list({ pageSize: 10 });
        const second = await caller.run.list({ pageSize: 10, page: 2 });
        expect(first).toMatchObject({ total: 35, page: 1, pageSize: 10, pageCount: 4 });
        expect(first.items).toHaveLength(10);
        expect(first.items[0]!.specification).toBe("Parse JSON 100% strictly (4)");
        expect(new Set([...first.items, ...second.items].map((run) => run.id)).size).toBe(20);
        expect((await caller.run.list({ pageSize: 10, page: 4 })).items).toHaveLength(5);
        expect((await caller.run.list({ pageSize: 10, page: 9 })).items).toEqual([]);
      });

      it("searches id, specification and workflow name, ignoring case", async () => {
        expect((await caller.run.list({ search: "lru-CACHE" })).total).toBe(30);
        expect((await caller.run.list({ search: "VARIANT 1" })).total).toBe(11);
        expect((await caller.run.list({ search: runIds[7]!.slice(0, 13).toUpperCase() })).items.map((run) => run.id)).toContain(runIds[7]);
        expect((await caller.run.list({ search: "100% STRICTLY" })).total).toBe(5);
        // PostgreSQL matches % as itself; SQLite's LIKE (no escape character) as any characters, wider, never narrower.
        const wildcard = await caller.run.list({ search: "1%0", pageSize: 100 });
        if (provider === "postgres") expect(wildcard.total).toBe(0);
        else expect(wildcard.items.filter((run) => run.specification.includes("100%"))).toHaveLength(5);
      });

      it("filters by status, workflow and days, together with search", async () => {
        expect((await caller.run.list({ status: "failed" })).total).toBe(10);
        expect((await caller.run.list({ workflow: "json-parser" })).total).toBe(5);
        expect((await caller.run.list({ from: new Date("2026-10-10T00:00:00Z"), to: new Date("2026-10-13T00:00:00Z") })).total).toBe(3);
        expect((await caller.run.list({ status: "failed", workflow: "LRU-Cache", search: "variant 2" })).items.map((run) => run.specification)).toEqual([
          "Write an LRU cache, variant 27",
          "Write an LRU cache, variant 24",
          "Write an LRU cache, variant 21",
        ]);
      });

      it("refuses a page size over 100, a page past 10000 and a search over 200 characters, naming the field", async () => {
        // In-process calls carry zod's issues; over HTTP the formatter turns them into "pageSize: must be at most 100".
        const refusal = (field: string, message: string) => ({ code: "BAD_REQUEST", message: expect.stringMatching(new RegExp(`"${field}"[\\s\\S]*${message}`)) });
        await expect(caller.run.list({ pageSize: 101 })).rejects.toMatchObject(refusal("pageSize", "must be at most 100"));
        await expect(caller.run.list({ page: 10_001 })).rejects.toMatchObject(refusal("page", "must be at most 10000"));
        await expect(caller.run.list({ search: "x".repeat(201) })).rejects.toMatchObject(refusal("search", "must be at most 200 characters"));
        await expect(caller.run.list({ status: "exploded" as "failed" })).rejects.toMatchObject(refusal("status", "must be a run status"));
      });

      it("needs a signed-in viewer", async () => {
        await expect(createTestCaller(database.db, null).run.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
        await expect(createTestCaller(database.db, VIEWER).run.list({ pageSize: 1 })).resolves.toMatchObject({ total: 35 });
      });
    });

    describe("workflow.listPage", () => {
      it("searches name and description, ignoring case, and pages", async () => {
        expect((await caller.workflow.listPage({ search: "LEAST RECENTLY" })).items.map((workflow) => workflow.name)).toEqual(["LRU-Cache"]);
        expect((await caller.workflow.listPage({ search: "JSON" })).items.map((workflow) => workflow.name)).toEqual(["json-parser"]);
        const page = await caller.workflow.listPage({ pageSize: 1, page: 2 });
        expect(page).toMatchObject({ total: 2, pageCount: 2 });
        expect(page.items).toHaveLength(1);
        expect(page.items[0]!.runCount).toBeGreaterThan(0);
      });
    });

    describe("escalation.list", () => {
      it("searches the workflow, step and specification, and pages", async () => {
        expect((await caller.escalation.list({ search: "lru-cache" })).items.map((item) => item.stepName)).toEqual(["implement"]);
        expect((await caller.escalation.list({ search: "STRICTLY" })).items.map((item) => item.stepName)).toEqual(["parse"]);
        const page = await caller.escalation.list({ pageSize: 1, page: 2, sort: "oldest" });
        expect(page).toMatchObject({ matching: 2, page: 2, pageCount: 2, counts: { pending: 2 } });
        expect(page.items).toHaveLength(1);
        await expect(caller.escalation.list({ pageSize: 500 })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("pageSize") });
      });
    });

    describe("admin.audit", () => {
      it("filters by action kind, one action, actor and day; searches; pages; and names the run's workflow", async () => {
        expect((await caller.admin.audit({ action: "token" })).items.map((event) => event.action)).toEqual(["token.created"]);
        expect((await caller.admin.audit({ action: "sign_in.failed" })).total).toBe(1);
        expect((await caller.admin.audit({ actor: "ADA@example.com" })).total).toBe(2);
        expect((await caller.admin.audit({ search: "MALLORY" })).items.map((event) => event.action)).toEqual(["sign_in.failed"]);
        expect((await caller.admin.audit({ to: new Date("2000-01-01") })).total).toBe(0);
        const decided = (await caller.admin.audit({ action: "escalation" })).items[0]!;
        expect(decided.context).toEqual({ workflow: "LRU-Cache" });
        const page = await caller.admin.audit({ pageSize: 2, page: 2 });
        // The three above and the two workflow saves of the setup.
        expect(page).toMatchObject({ total: 5, pageCount: 3 });
        expect(page.items).toHaveLength(2);
      });

      it("is for admins only and refuses a malformed action", async () => {
        await expect(createTestCaller(database.db, VIEWER).admin.audit()).rejects.toMatchObject({ code: "FORBIDDEN" });
        await expect(caller.admin.audit({ action: "token' OR 1=1" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("must be an action such as token or token.created") });
      });
    });
  });
}
