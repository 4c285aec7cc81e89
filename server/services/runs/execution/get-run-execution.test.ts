import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/server/persistence/testing/test-database";
import { isServiceError } from "../../errors";
import { getRunExecution } from "./get-run-execution";
import { listExecutionEdges } from "./execution-edges";
import { listToolWaits } from "./tool-waits";
import { listTurns } from "./turn-records";
import { listWatchdogActions } from "./watchdog-actions";
import { seedSuspendedFamily, type SeededFamily } from "./testing/seed-suspended-run";

for (const provider of TEST_PROVIDERS) {
  describe(`a run's execution (waits, turns, edges, family, watchdog) on ${provider}`, () => {
    let database: TestDatabase;
    let seeded: SeededFamily;

    beforeAll(async () => {
      database = await createTestDatabase(provider);
      seeded = await seedSuspendedFamily(database.db);
    });
    afterAll(() => database?.dispose());

    it("lists the calls the run waits for, oldest first, with what a person or a script needs to answer them", async () => {
      const { waits, waitingToolCount } = await getRunExecution(database.db, seeded.parentId);
      expect(waitingToolCount).toBe(3);
      expect(waits).toMatchObject({ total: 5, waiting: 3 });
      expect(waits.items.map((wait) => `${wait.tool}:${wait.kind}:${wait.status}`)).toEqual([
        "lookup_owner:external:reported",
        "ping_pager:external:timed_out",
        "ask_release_manager:person:waiting",
        "write_changelog:workflow:waiting",
        "deploy_check:external:waiting",
      ]);
      const person = waits.items.find((wait) => wait.callId === seeded.calls.person)!;
      expect(person).toMatchObject({ question: "May we freeze main on Friday?", since: seeded.at(300), stepName: "plan", attempt: 2, reportCommand: null });
      expect(person.input).toEqual({ text: JSON.stringify({ topic: "freeze" }, null, 2), truncated: false });
      expect(waits.items.find((wait) => wait.callId === seeded.calls.workflow)).toMatchObject({ workflow: "changelog", childRunId: seeded.childId });
      // An external call still waiting gets the exact command, its result shaped like the schema (required fields first).
      expect(waits.items.find((wait) => wait.callId === seeded.calls.external)?.reportCommand).toBe(
        `npx dualstate runs report ${seeded.parentId} ${seeded.calls.external} --result '{"healthy":false,"note":""}'`,
      );
      // An answered one says who answered and what.
      expect(waits.items[0]).toMatchObject({ reportedBy: "ops@example.com", reportedAt: seeded.at(200), reportCommand: null, result: { text: expect.stringContaining('"owner": "ada"') } });
    });

    it("keeps the newest calls when there are more than the limit, and says how many there are", async () => {
      const page = await listToolWaits(database.db, seeded.parentId, 2);
      expect(page.total).toBe(5);
      expect(page.waiting).toBe(3);
      expect(page.items).toHaveLength(2);
      expect(page.items.map((wait) => wait.tool)).toEqual(["write_changelog", "deploy_check"]);
    });

    it("bounds what a model wrote: a long question is cut", async () => {
      await database.db.toolWait.create({
        data: { id: `${seeded.childId}-long`, runId: seeded.childId, callKey: "k/long", stepName: "changelog", attempt: 1, tool: "ask", kind: "person", input: {}, question: "why? ".repeat(1_000), deadlineAt: seeded.at(9_999) },
      });
      const [wait] = (await listToolWaits(database.db, seeded.childId)).items;
      expect(wait?.question).toHaveLength(4_001);
      expect(wait?.question?.endsWith("…")).toBe(true);
      await database.db.toolWait.delete({ where: { id: `${seeded.childId}-long` } });
    });

    it("lists exactly one row per turn with its outcome and deliverable, in epoch order", async () => {
      const { turns } = await getRunExecution(database.db, seeded.parentId);
      expect(turns.total).toBe(4);
      expect(turns.items.map((turn) => [turn.epoch, turn.kind, turn.outcome, turn.deliverable])).toEqual([
        [1, "start", "suspended", "waiting for lookup_owner (external), ping_pager (external)"],
        [2, "report", "lost", "the lease of worker-a expired; the watchdog reclaimed the run"],
        [3, "report", "deferred", "database unavailable"],
        [4, "report", "suspended", "waiting for ask_release_manager (person), write_changelog (workflow), deploy_check (external)"],
      ]);
      const newest = await listTurns(database.db, seeded.parentId, 2);
      expect(newest.items.map((turn) => turn.epoch)).toEqual([3, 4]);
      expect(newest.total).toBe(4);
    });

    it("shows the edges entering the run and the joins it sends to its sub-runs", async () => {
      const { edges } = await getRunExecution(database.db, seeded.parentId);
      expect(edges.total).toBe(9);
      // The sub-run's join request and start message, both sent from this run.
      expect(edges.items.filter((edge) => edge.direction === "out")).toEqual([
        expect.objectContaining({ primitive: "join", phase: "request", runId: seeded.childId, fromRunId: seeded.parentId, callId: seeded.calls.workflow }),
        expect.objectContaining({ primitive: "enqueue", phase: "request", kind: "start", runId: seeded.childId, fromRunId: seeded.parentId }),
      ]);
      expect(edges.items.map((edge) => edge.primitive)).toEqual(["enqueue", "tool_call", "report", "report", "tool_call", "tool_call", "tool_call", "join", "enqueue"]);
      // Who reported, and the tool, from the edge's detail.
      expect(edges.items.filter((edge) => edge.primitive === "report").map((edge) => [edge.tool, edge.by])).toEqual([
        ["lookup_owner", "ops@example.com"],
        ["ping_pager", "watchdog"],
      ]);
      const child = await listExecutionEdges(database.db, seeded.childId);
      expect(child.items.map((edge) => `${edge.primitive}/${edge.phase}:${edge.direction}`)).toEqual(["join/request:in", "enqueue/request:in"]);
      expect((await listExecutionEdges(database.db, seeded.parentId, 3)).items.map((edge) => edge.primitive)).toEqual(["tool_call", "join", "enqueue"]);
    });

    it("links a sub-run to its parent's waiting call, and the parent to its sub-runs", async () => {
      const parent = await getRunExecution(database.db, seeded.parentId);
      expect(parent.family.parent).toBeNull();
      expect(parent.family.childCount).toBe(1);
      expect(parent.family.children).toEqual([{ runId: seeded.childId, status: "running", workflow: expect.any(String), callId: seeded.calls.workflow, tool: "write_changelog", createdAt: seeded.at(301), finishedAt: null }]);

      const child = await getRunExecution(database.db, seeded.childId);
      expect(child.family.children).toEqual([]);
      expect(child.family.parent).toEqual({
        runId: seeded.parentId,
        status: "suspended",
        workflow: expect.any(String),
        callId: seeded.calls.workflow,
        call: { tool: "write_changelog", stepName: "plan", attempt: 2, status: "waiting" },
      });
    });

    it("lists what the watchdog did: its last note first, then lost turns, expired escalations and timed-out calls, newest first", async () => {
      const { watchdog } = await getRunExecution(database.db, seeded.parentId);
      expect(watchdog.total).toBe(4);
      expect(watchdog.items.map((item) => [item.action, item.at?.toISOString() ?? null])).toEqual([
        ["note", seeded.at(100).toISOString()],
        ["timed_out_call", seeded.at(251).toISOString()],
        ["took_over", seeded.at(250).toISOString()],
        ["expired_escalation", seeded.at(120).toISOString()],
      ]);
      expect(watchdog.items[0]?.text).toBe("lease of worker-a expired at epoch 2; reclaimed as epoch 3");
      expect(watchdog.items[1]).toMatchObject({ callId: seeded.calls.timedOut, text: expect.stringContaining("ping_pager") });
      expect(watchdog.items[2]).toMatchObject({ epoch: 2, text: "Turn at epoch 2 (worker worker-a) was lost: the lease of worker-a expired; the watchdog reclaimed the run" });
      expect(watchdog.items[3]).toMatchObject({ escalationId: "esc-expired-1" });
      // A note the watchdog wrote without its time still shows, without one.
      const untimed = await listWatchdogActions(database.db, { id: seeded.childId, watchdogNote: "closed 2 messages" });
      expect(untimed).toEqual({ items: [{ action: "note", at: null, text: "closed 2 messages", epoch: null, callId: null, escalationId: null }], total: 1 });
    });

    it("fails with NOT_FOUND naming an unknown run", async () => {
      const id = randomUUID();
      const error = await getRunExecution(database.db, id).catch((caught: unknown) => caught);
      expect(isServiceError(error) && error.code === "NOT_FOUND" && error.message.includes(id)).toBe(true);
    });
  });
}
