import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDoorbell } from "@/server/durable/doorbell";
import { DurableStore } from "@/server/durable/durable-store";
import { openSqlClient } from "@/server/persistence/sql/open-sql-client";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/server/persistence/testing/test-database";
import { getProvenance } from "@/server/services/provenance/get-provenance";
import { getRunExecution } from "./get-run-execution";
import { saveWorkflowDefinition } from "@/server/services/workflows/save-definition";
import { until } from "@/server/testing/until";
import { RunWorker } from "@/server/worker/run-worker";
import { CHILD_YAML, definitionOf, PARENT_YAML, waitingMachineFor, type WaitingToolPlan } from "@/server/worker/testing/waiting-tool-machine";

const HOUR = 60 * 60 * 1000;

/** The run page's read side over rows the durable store and a real worker wrote (not fixtures). */
describe.each(TEST_PROVIDERS)("the run page reads what workers wrote for tools that wait, on %s", (provider) => {
  let database: TestDatabase;
  let store: DurableStore;
  let parentVersion: string;
  let worker: RunWorker | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    store = new DurableStore(openSqlClient(database.url));
    parentVersion = (await saveWorkflowDefinition(database.db, definitionOf(PARENT_YAML))).versionId;
    await saveWorkflowDefinition(database.db, definitionOf(CHILD_YAML));
  });
  afterAll(async () => {
    await worker?.stop(1_000);
    await store.close();
    await database.dispose();
  });

  const runIn = (runId: string, statuses: string[]) =>
    until(async () => {
      const run = await database.db.run.findUniqueOrThrow({ where: { id: runId } });
      return statuses.includes(run.status) ? run : undefined;
    });

  function startWorker(plan: WaitingToolPlan) {
    worker = new RunWorker(store, createDoorbell(database.url), { leaseMs: 10_000, escalationTimeoutMs: HOUR, maxRetries: 3, compile: {}, concurrency: 2, pollMs: 100, watchdogIntervalMs: 60_000, machineFor: waitingMachineFor(plan) });
    worker.start();
  }

  it("an external call: waiting with its command, then one turn row per turn and the report edge once answered", async () => {
    startWorker({ kind: "external", deadlineAfterMs: HOUR, entered: { count: 0 } });
    const { runId } = await store.enqueueRun({ workflowVersionId: parentVersion, specification: "say what you are told" });
    await runIn(runId, ["suspended"]);
    const waiting = await getRunExecution(database.db, runId);
    expect(waiting.waitingToolCount).toBe(1);
    const [call] = waiting.waits.items;
    expect(call).toMatchObject({ tool: "ask", kind: "external", status: "waiting", stepName: "write", attempt: 1 });
    expect(call!.reportCommand).toBe(`npx dualstate runs report ${runId} ${call!.callId} --result '{}'`);
    expect(waiting.turns.items.map((turn) => [turn.epoch, turn.kind, turn.outcome, turn.deliverable])).toEqual([[1, "start", "suspended", "waiting for ask (external)"]]);

    await store.reportToolResult({ runId, callId: call!.callId, result: { text: "forty-two" }, reportedBy: "ci@example.com" });
    await runIn(runId, ["succeeded"]);
    const done = await getRunExecution(database.db, runId);
    expect(done.turns.items.map((turn) => [turn.epoch, turn.kind, turn.outcome])).toEqual([
      [1, "start", "suspended"],
      [2, "report", "succeeded"],
    ]);
    expect(done.turns.items[1]!.deliverable).toMatch(/^artifacts g \([0-9a-f]{12}\)$/);
    expect(done.edges.items.map((edge) => `${edge.primitive}/${edge.phase}:${edge.kind}`)).toEqual(["enqueue/request:start", "tool_call/request:external", "report/response:report"]);
    expect(done.edges.items[2]).toMatchObject({ callId: call!.callId, by: "ci@example.com", tool: "ask" });
    expect(done.waits.items[0]).toMatchObject({ status: "reported", reportedBy: "ci@example.com", reportCommand: null });

    const provenance = await getProvenance(database.db, runId);
    const artifact = provenance.graph.nodes[0]!.id;
    expect(provenance.execution.edges.map((edge) => `${edge.kind}:${edge.source}->${edge.target}`)).toEqual([`tool_call:${artifact}->call:${call!.callId}`, `report:call:${call!.callId}->${artifact}`]);
    await worker!.stop(1_000);
  });

  it("a workflow call: the sub-run both ways, and the join edges on each side", async () => {
    startWorker({ kind: "workflow", deadlineAfterMs: HOUR, entered: { count: 0 } });
    const { runId } = await store.enqueueRun({ workflowVersionId: parentVersion, specification: "delegate" });
    await runIn(runId, ["succeeded"]);
    const parent = await getRunExecution(database.db, runId);
    const [call] = parent.waits.items;
    const childId = call!.childRunId!;
    expect(parent.family.children).toEqual([expect.objectContaining({ runId: childId, status: "succeeded", callId: call!.callId, tool: "ask" })]);
    expect(parent.edges.items.filter((edge) => edge.primitive === "join").map((edge) => `${edge.phase}:${edge.direction}`)).toEqual(["request:out", "response:in"]);
    const child = await getRunExecution(database.db, childId);
    expect(child.family.parent).toMatchObject({ runId, callId: call!.callId, call: { tool: "ask", stepName: "write", attempt: 1, status: "reported" } });
    expect(child.edges.items.filter((edge) => edge.primitive === "join").map((edge) => `${edge.phase}:${edge.direction}`)).toEqual(["request:in", "response:out"]);

    const drawn = await getProvenance(database.db, runId);
    expect(drawn.execution.edges.filter((edge) => edge.kind === "join").map((edge) => `${edge.phase}:${edge.source}->${edge.target}`)).toEqual([
      `request:call:${call!.callId}->run:${childId}`,
      `response:run:${childId}->call:${call!.callId}`,
    ]);
  });
});
