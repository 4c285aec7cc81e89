import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "../persistence/testing/test-database";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { saveWorkflowDefinition } from "../services/workflows/save-definition";
import { cheapWorkflow } from "../worker/testing/cheap-workflow";
import { DurableStore } from "./durable-store";
import { waitIdOf } from "./store/tool-waits";

const ROUNDS = 200;

describe.each(TEST_PROVIDERS)("a report racing its deadline's timeout (%s)", (provider) => {
  let database: TestDatabase;
  let reporter: DurableStore;
  let watchdog: DurableStore;
  let versionId: string;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    // PostgreSQL: two connections, so the report and the watchdog's timeout are two transactions
    // that really race. SQLite: one process has one connection (its transactions take turns; across
    // processes SQLite's write lock serializes them the same way), so both go through it.
    reporter = new DurableStore(openSqlClient(database.url));
    watchdog = provider === "postgres" ? new DurableStore(openSqlClient(database.url)) : reporter;
    versionId = (await saveWorkflowDefinition(database.db, cheapWorkflow())).versionId;
  });
  afterAll(async () => {
    await reporter.close();
    if (watchdog !== reporter) await watchdog.close();
    await database.dispose();
  });

  /** A run suspended on one external call whose deadline is `offsetMs` from now (negative: already passed). */
  async function callDueAt(round: number, offsetMs: number): Promise<{ runId: string; callId: string; callKey: string }> {
    const { runId } = await reporter.enqueueRun({ workflowVersionId: versionId, specification: `round ${round}` });
    const callKey = `first/attempt-1/1/deploy`;
    const callId = waitIdOf(runId, callKey);
    await database.db.inboxMessage.updateMany({ where: { runId }, data: { status: "done" } });
    await database.db.run.update({ where: { id: runId }, data: { status: "suspended", waitingToolCount: 1 } });
    await database.db.toolWait.create({
      data: { id: callId, runId, callKey, stepName: "first", attempt: 1, tool: "deploy", kind: "external", input: {}, deadlineAt: new Date(Date.now() + offsetMs) },
    });
    return { runId, callId, callKey };
  }

  // Each round fires the report and the watchdog's sweep together with the deadline a little
  // before, at or after that moment (-20 … +20 ms, by the database's clock on this machine), so
  // some reports land in time and some late. A late report applies the timeout in its own
  // transaction, so the report and the sweep may both try to: whatever the order, the call gets
  // exactly one result, the report's or the timeout's, and the loser changes nothing.
  it(`a report racing its deadline, ${ROUNDS} times: exactly one result each time, the report's or the timeout's`, async () => {
    const outcomes = { reported: 0, timedOutBySweep: 0, timedOutByReport: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const offsetMs = (round % 41) - 20;
      const { runId, callId, callKey } = await callDueAt(round, offsetMs);
      const [report, sweep] = await Promise.all([
        reporter.reportToolResult({ runId, callId, result: { url: `https://preview/${round}` }, reportedBy: "ci" }),
        watchdog.timeOutOverdueWaits(),
      ]);
      const context = `round ${round}, deadline ${offsetMs} ms`;
      const wait = await database.db.toolWait.findUniqueOrThrow({ where: { id: callId } });
      const results = await database.db.ledgerEntry.findMany({ where: { runId, callKey: `result:${callKey}` } });
      expect(results, context).toHaveLength(1);
      const sweptIt = sweep.some((entry) => entry.callId === callId);
      if (report.applied) {
        expect(sweptIt, context).toBe(false);
        expect(wait.status, context).toBe("reported");
        expect(results[0]!.payload, context).toMatchObject({ url: `https://preview/${round}` });
        outcomes.reported++;
      } else {
        expect(report, context).toMatchObject({ applied: false, status: "timed_out", reportedBy: "watchdog" });
        expect(wait.status, context).toBe("timed_out");
        expect((results[0]!.payload as { code?: string }).code, context).toBe("TIMEOUT");
        outcomes[sweptIt ? "timedOutBySweep" : "timedOutByReport"]++;
      }
      const messages = await database.db.inboxMessage.findMany({ where: { runId, kind: "report" } });
      expect(messages.map((message) => message.status), context).toEqual(["pending"]);
      expect((await database.db.run.findUniqueOrThrow({ where: { id: runId } })).waitingToolCount, context).toBe(0);
    }
    expect(outcomes.reported + outcomes.timedOutBySweep + outcomes.timedOutByReport).toBe(ROUNDS);
    // Rounds whose deadline had passed by a margin (-20 … -10 ms) cannot be won by the report.
    expect(outcomes.timedOutBySweep + outcomes.timedOutByReport).toBeGreaterThan(0);
  }, 240_000);

  it("a run waiting for two calls resumes only when both are in, and its deadline follows the earliest open call", async () => {
    const { runId } = await reporter.enqueueRun({ workflowVersionId: versionId, specification: "two calls" });
    await database.db.inboxMessage.updateMany({ where: { runId }, data: { status: "done" } });
    const soon = new Date(Date.now() + 60_000);
    const later = new Date(Date.now() + 3_600_000);
    const calls = [
      { key: "first/attempt-1/1/ask", deadline: soon },
      { key: "first/attempt-1/2/deploy", deadline: later },
    ];
    for (const call of calls) {
      await database.db.toolWait.create({
        data: { id: waitIdOf(runId, call.key), runId, callKey: call.key, stepName: "first", attempt: 1, tool: call.key.split("/").at(-1)!, kind: "external", input: {}, deadlineAt: call.deadline },
      });
    }
    await database.db.run.update({ where: { id: runId }, data: { status: "suspended", waitingToolCount: 2, resumeDeadline: soon } });
    const first = await reporter.reportToolResult({ runId, callId: waitIdOf(runId, calls[0]!.key), result: { answer: "yes" }, reportedBy: "ada" });
    expect(first).toEqual({ applied: true, resumed: false, remaining: 1 });
    const run = await database.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.waitingToolCount).toBe(1);
    expect(run.resumeDeadline?.getTime()).toBe(later.getTime());
    expect((await database.db.inboxMessage.findMany({ where: { runId, kind: "report" } })).map((message) => message.status)).toEqual(["done"]);
    const second = await reporter.reportToolResult({ runId, callId: waitIdOf(runId, calls[1]!.key), result: { url: "https://x" }, reportedBy: "ci" });
    expect(second).toEqual({ applied: true, resumed: true, remaining: 0 });
    const messages = await database.db.inboxMessage.findMany({ where: { runId, kind: "report" }, orderBy: { createdAt: "asc" } });
    expect(messages.map((message) => message.status).sort()).toEqual(["done", "pending"]);
    expect((await database.db.run.findUniqueOrThrow({ where: { id: runId } })).resumeDeadline).toBeNull();
    const edges = await database.db.executionEdge.findMany({ where: { runId, primitive: "report" } });
    expect(edges).toHaveLength(2);
  });
});
