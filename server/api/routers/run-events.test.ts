import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { minimalWorkflowDefinition } from "@/server/workflows/definition/testing/minimal-workflow";
import { createCaller } from "../root";
import { createTRPCContext } from "../trpc";
import { TEST_ADMIN, TEST_DATABASES } from "../testing/test-caller";

/** createCaller hands tracked() events over as [id, data, symbol] (stack.md pitfall 15). */
type Tracked = [string, { seq: number; type: string }, symbol];

for (const { provider, enabled } of TEST_DATABASES) {
  describe.runIf(enabled)(`run.events on ${provider}`, () => {
    let database: TestDatabase;
    let runId: string;
    const append = (seq: number, type: string) =>
      database.db.ledgerEntry.create({ data: { id: `${runId}-${seq}`, runId, seq, actor: "engine", type, payload: { seq } } });

    beforeAll(async () => {
      database = await createTestDatabase(provider);
      const caller = createCaller(createTRPCContext({ db: database.db, actor: TEST_ADMIN }));
      const workflow = await caller.workflow.create({ definition: minimalWorkflowDefinition("Streamed") });
      runId = (await caller.run.create({ workflowId: workflow.id, specification: "stream me" })).id;
      await append(1, "run.started");
      await append(2, "step.started");
    });
    afterAll(() => database?.dispose());

    it("streams what is recorded, then each new entry as it is committed, with its seq as the event id; ends with the run", async () => {
      const controller = new AbortController();
      const caller = createCaller(createTRPCContext({ db: database.db, actor: TEST_ADMIN }), { signal: controller.signal });
      const events = (await caller.run.events({ id: runId })) as AsyncIterable<Tracked>;
      const seen: string[] = [];
      const reading = (async () => {
        for await (const [id, entry] of events) {
          seen.push(`${id}:${entry.type}`);
          if (entry.type === "step.started" && seen.length === 2) {
            await append(3, "generator.completed");
            await database.db.run.update({ where: { id: runId }, data: { status: "succeeded" } });
            await append(4, "run.finished");
          }
        }
      })();
      await reading;
      expect(seen).toEqual(["1:run.started", "2:step.started", "3:generator.completed", "4:run.finished"]);
    });

    it("a reconnect with the last event id resumes after it, losing nothing and repeating nothing", async () => {
      const caller = createCaller(createTRPCContext({ db: database.db, actor: TEST_ADMIN }));
      const events = (await caller.run.events({ id: runId, lastEventId: "2" })) as AsyncIterable<Tracked>;
      const seen: number[] = [];
      for await (const [, entry] of events) seen.push(entry.seq);
      expect(seen).toEqual([3, 4]);
    });

    it("an unknown run is NOT_FOUND; a malformed last event id is refused", async () => {
      const caller = createCaller(createTRPCContext({ db: database.db, actor: TEST_ADMIN }));
      const unknown = (await caller.run.events({ id: "no-such-run" })) as AsyncIterable<Tracked>;
      await expect(async () => {
        for await (const _ of unknown) break;
      }).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(caller.run.events({ id: runId, lastEventId: "abc" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    });
  });
}
