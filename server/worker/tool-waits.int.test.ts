import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDoorbell } from "../durable/doorbell";
import { DurableStore } from "../durable/durable-store";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "../persistence/testing/test-database";
import { saveWorkflowDefinition } from "../services/workflows/save-definition";
import { until } from "../testing/until";
import { executeTurn } from "./execute-turn";
import { RunWorker } from "./run-worker";
import { CHILD_YAML, definitionOf, PARENT_YAML, waitingMachineFor, type WaitingToolPlan } from "./testing/waiting-tool-machine";
import { sweep } from "./watchdog";

const HOUR = 60 * 60 * 1000;

describe.each(TEST_PROVIDERS)("tools that wait (003 suspension) on %s", (provider) => {
  let database: TestDatabase;
  let store: DurableStore;
  let parentVersion: string;
  const workers: RunWorker[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    store = new DurableStore(openSqlClient(database.url));
    parentVersion = (await saveWorkflowDefinition(database.db, definitionOf(PARENT_YAML))).versionId;
    await saveWorkflowDefinition(database.db, definitionOf(CHILD_YAML));
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop(1_000);
    await store.close();
    await database.dispose();
  });

  /** One worker at a time, so the run is executed with this test's plan. */
  async function startWorker(plan: WaitingToolPlan): Promise<RunWorker> {
    for (const running of workers.splice(0)) await running.stop(1_000);
    const worker = new RunWorker(store, createDoorbell(database.url), {
      leaseMs: 10_000,
      escalationTimeoutMs: HOUR,
      maxRetries: 3,
      compile: {},
      concurrency: 2,
      pollMs: 100,
      watchdogIntervalMs: 60_000,
      machineFor: waitingMachineFor(plan),
      log: (line) => console.error(line),
    });
    worker.start();
    workers.push(worker);
    return worker;
  }

  const runIn = (runId: string, statuses: string[]) =>
    until(async () => {
      const run = await database.db.run.findUniqueOrThrow({ where: { id: runId } });
      return statuses.includes(run.status) ? run : undefined;
    });

  async function suspendedRun(plan: WaitingToolPlan) {
    const worker = await startWorker(plan);
    const { runId } = await store.enqueueRun({ workflowVersionId: parentVersion, specification: "say what you are told" });
    const run = await runIn(runId, ["suspended", "failed", "succeeded"]);
    expect(run.status).toBe("suspended");
    const [wait] = await database.db.toolWait.findMany({ where: { runId } });
    return { worker, runId, run, wait: wait! };
  }

  it("suspends holding no worker, resumes on the report, and the tool never runs again", async () => {
    const plan: WaitingToolPlan = { kind: "external", deadlineAfterMs: HOUR, entered: { count: 0 } };
    const { runId, run, wait } = await suspendedRun(plan);
    expect(run.waitingToolCount).toBe(1);
    expect(run.leaseOwner).toBeNull();
    expect(run.resumeDeadline!.getTime()).toBeGreaterThan(Date.now() + HOUR - 60_000);
    expect(wait).toMatchObject({ status: "waiting", tool: "ask", kind: "external", stepName: "write" });
    expect(plan.entered.count).toBe(1);

    const outcome = await store.reportToolResult({ runId, callId: wait.id, result: { text: "forty-two" }, reportedBy: "ci@example.com" });
    expect(outcome).toEqual({ applied: true, resumed: true, remaining: 0 });
    const done = await runIn(runId, ["succeeded", "failed"]);
    expect(done.status).toBe("succeeded");
    expect(plan.entered.count).toBe(1);
    const artifact = await database.db.artifact.findFirstOrThrow({ where: { runId, passed: true } });
    expect(JSON.parse(artifact.content)).toEqual({ answer: { text: "forty-two" } });

    // Exactly one turn record per turn: the start suspended, the report's turn delivered.
    const turns = await database.db.turnRecord.findMany({ where: { runId }, orderBy: { epoch: "asc" } });
    expect(turns.map((turn) => `${turn.epoch}:${turn.kind}:${turn.outcome}`)).toEqual(["1:start:suspended", "2:report:succeeded"]);
    const edges = await database.db.executionEdge.findMany({ where: { runId }, orderBy: { createdAt: "asc" } });
    expect(edges.map((edge) => `${edge.primitive}/${edge.phase}`).sort()).toEqual(["enqueue/request", "report/response", "tool_call/request"]);
    expect(edges.find((edge) => edge.primitive === "report")?.callId).toBe(wait.id);
    const ledger = await database.db.ledgerEntry.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    expect(ledger.map((entry) => entry.seq)).toEqual(ledger.map((_, index) => index + 1));
    expect(ledger.filter((entry) => entry.callKey === `result:${wait.callKey}`)).toHaveLength(1);
  });

  it("acknowledges a duplicate report, a report for an unknown call and one for another run without effect", async () => {
    const plan: WaitingToolPlan = { kind: "external", deadlineAfterMs: HOUR, entered: { count: 0 } };
    const { runId, wait } = await suspendedRun(plan);
    expect(await store.reportToolResult({ runId, callId: "no-such-call", result: {}, reportedBy: "x" })).toEqual({ applied: false, status: "unknown" });
    const first = await store.reportToolResult({ runId, callId: wait.id, result: { n: 1 }, reportedBy: "first" });
    expect(first.applied).toBe(true);
    const again = await store.reportToolResult({ runId, callId: wait.id, result: { n: 2 }, reportedBy: "second" });
    expect(again).toMatchObject({ applied: false, status: "reported", reportedBy: "first" });
    expect(again.applied === false && again.status === "reported" ? again.reportedAt : null).toMatch(/^\d{4}-\d\d-\d\dT/);
    const done = await runIn(runId, ["succeeded", "failed"]);
    expect(done.status).toBe("succeeded");
    const artifact = await database.db.artifact.findFirstOrThrow({ where: { runId, passed: true } });
    expect(JSON.parse(artifact.content)).toEqual({ answer: { n: 1 } });
    const messages = await database.db.inboxMessage.findMany({ where: { runId, kind: "report" } });
    expect(messages).toHaveLength(1);
  });

  it("a deadline injects a TIMEOUT report the policy reads as data", async () => {
    const plan: WaitingToolPlan = { kind: "external", deadlineAfterMs: HOUR, entered: { count: 0 } };
    const { runId, wait } = await suspendedRun(plan);
    // An hour passes (the deadline moved back rather than waiting for it).
    await database.db.toolWait.update({ where: { id: wait.id }, data: { deadlineAt: new Date(Date.now() - 1_000) } });
    const report = await sweep(store);
    expect(report.timedOut).toEqual([{ runId, callId: wait.id }]);
    const done = await runIn(runId, ["succeeded", "failed"]);
    expect(done.status).toBe("succeeded");
    expect(done.watchdogNote).toMatch(/passed its deadline/);
    const artifact = await database.db.artifact.findFirstOrThrow({ where: { runId, passed: true } });
    expect(JSON.parse(artifact.content).answer).toMatchObject({ error: true, code: "TIMEOUT" });
    const late = await store.reportToolResult({ runId, callId: wait.id, result: { late: true }, reportedBy: "slow" });
    expect(late).toMatchObject({ applied: false, status: "timed_out", reportedBy: "watchdog" });
    expect(plan.entered.count).toBe(1);
  });

  it("cancel works while suspended: the run is cancelled, its call cancelled, a late report changes nothing", async () => {
    const plan: WaitingToolPlan = { kind: "external", deadlineAfterMs: HOUR, entered: { count: 0 } };
    const { runId, wait } = await suspendedRun(plan);
    expect(await store.requestCancel(runId, "not needed")).toBe(true);
    const run = await runIn(runId, ["cancelled"]);
    expect(run.waitingToolCount).toBe(0);
    expect((await database.db.toolWait.findUniqueOrThrow({ where: { id: wait.id } })).status).toBe("cancelled");
    expect(await store.reportToolResult({ runId, callId: wait.id, result: {}, reportedBy: "late" })).toMatchObject({ applied: false, status: "cancelled" });
    const turns = await database.db.turnRecord.findMany({ where: { runId }, orderBy: { epoch: "asc" } });
    expect(turns.map((turn) => `${turn.kind}:${turn.outcome}`)).toEqual(["start:suspended", "cancel:cancelled"]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await database.db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("cancelled");
  });

  it("a workflow tool starts a sub-run joined to its parent; the sub-run's result resumes the parent", async () => {
    const plan: WaitingToolPlan = { kind: "workflow", deadlineAfterMs: HOUR, entered: { count: 0 } };
    await startWorker(plan);
    const override = { kind: "llm", model: "inherited-model" };
    const { runId } = await store.enqueueRun({ workflowVersionId: parentVersion, specification: "delegate", generatorOverride: override, startedBy: "ada@example.com" });
    const done = await runIn(runId, ["succeeded", "failed", "cancelled"]);
    expect(done.status).toBe("succeeded");
    const wait = await database.db.toolWait.findFirstOrThrow({ where: { runId } });
    expect(wait.status).toBe("reported");
    const child = await database.db.run.findUniqueOrThrow({ where: { id: wait.childRunId! } });
    // A sub-run is started by whoever started its parent.
    expect(child).toMatchObject({ status: "succeeded", parentRunId: runId, parentCallId: wait.id, specification: "What should it say?", generatorOverride: override, startedBy: "ada@example.com" });
    const artifact = await database.db.artifact.findFirstOrThrow({ where: { runId, passed: true } });
    expect(JSON.parse(artifact.content).answer).toMatchObject({ status: "succeeded", runId: child.id, artifacts: { g: JSON.stringify({ answer: "from the sub-run" }) } });
    const joins = await database.db.executionEdge.findMany({ where: { primitive: "join", OR: [{ runId }, { runId: child.id }] } });
    expect(joins.map((edge) => `${edge.runId === runId ? "parent" : "child"}:${edge.phase}:${edge.fromRunId === (edge.runId === runId ? child.id : runId)}`).sort()).toEqual([
      "child:request:true",
      "parent:response:true",
    ]);
  });

  it("a sub-run whose parent is cancelled is cancelled too, before it starts", async () => {
    const plan: WaitingToolPlan = { kind: "workflow", deadlineAfterMs: HOUR, entered: { count: 0 } };
    for (const worker of workers.splice(0)) await worker.stop(1_000);
    // Only the parent's first turn runs, so its sub-run is still queued when the cancel comes.
    const { runId } = await store.enqueueRun({ workflowVersionId: parentVersion, specification: "delegate, then cancel" });
    const turn = await store.claim("test-worker", 10_000, runId);
    const outcome = await executeTurn(store, turn!, { leaseMs: 10_000, escalationTimeoutMs: HOUR, maxRetries: 3, compile: {}, machineFor: waitingMachineFor(plan) });
    expect(outcome).toBe("suspended");
    const wait = await database.db.toolWait.findFirstOrThrow({ where: { runId } });
    const child = await database.db.run.findUniqueOrThrow({ where: { id: wait.childRunId! } });
    expect(child.status).toBe("queued");
    expect(await store.requestCancel(runId, "changed my mind")).toBe(true);
    // The parent's cancel turn first, alone: it replaces the sub-run's queued start with a cancel.
    const cancelTurn = await store.claim("test-worker", 10_000, runId);
    expect(cancelTurn?.kind).toBe("cancel");
    expect(await executeTurn(store, cancelTurn!, { leaseMs: 10_000, escalationTimeoutMs: HOUR, maxRetries: 3, compile: {}, machineFor: waitingMachineFor(plan) })).toBe("cancelled");
    await startWorker(plan);
    const cancelled = await runIn(child.id, ["cancelled", "succeeded", "failed"]);
    expect(cancelled.status).toBe("cancelled");
    expect((cancelled.finalResult as { reason?: string }).reason).toMatch(/parent run .* ended/);
    const childTurns = await database.db.turnRecord.findMany({ where: { runId: child.id } });
    expect(childTurns.map((record) => `${record.kind}:${record.outcome}`)).toEqual(["cancel:cancelled"]);
    expect(await database.db.artifact.count({ where: { runId: child.id } })).toBe(0);
  });
});
