import { randomUUID } from "node:crypto";
import type { Db } from "@/server/persistence/db";
import { createWorkflow } from "@/server/services/workflows/create-workflow";

/**
 * Fixture rows for the read side of issue 18, written directly (the durable store's writers have
 * tests of their own): a parent run suspended on three waiting calls (a person, a sub-run, an
 * external system) and one answered call, its sub-run, its turns, edges, and the watchdog's traces.
 */
async function newWorkflowVersion(db: Db): Promise<string> {
  const workflow = await createWorkflow(db, { name: `waits-${randomUUID().slice(0, 8)}`, definition: { specification: "Plan a release" } });
  return (await db.workflowVersion.findFirstOrThrow({ where: { workflowId: workflow.id }, select: { id: true } })).id;
}

export interface SeededFamily {
  readonly parentId: string;
  readonly childId: string;
  readonly calls: { readonly person: string; readonly workflow: string; readonly external: string; readonly answered: string; readonly timedOut: string };
  /** The database time the rows are stamped around. */
  readonly at: (seconds: number) => Date;
}

/** `workflowVersionId`: run the fixture runs on an existing version (the e2e database's examples) instead of a new workflow. */
export async function seedSuspendedFamily(db: Db, options: { workflowVersionId?: string; base?: Date } = {}): Promise<SeededFamily> {
  const base = options.base ?? new Date(Date.now() - 10 * 60_000);
  const at = (seconds: number) => new Date(base.getTime() + seconds * 1000);
  const versionId = options.workflowVersionId ?? (await newWorkflowVersion(db));
  const parentId = randomUUID();
  const childId = randomUUID();
  const suffix = parentId.slice(0, 8);
  // Ids sort in the order the calls were made, as the store's time-ordered ids do.
  const calls = { answered: `${suffix}-c1-answered`, timedOut: `${suffix}-c2-timeout`, person: `${suffix}-c3-person`, workflow: `${suffix}-c4-workflow`, external: `${suffix}-c5-external` };
  const deadline = new Date(Date.now() + 3 * 86_400_000);

  await db.run.create({
    data: {
      id: parentId,
      workflowVersionId: versionId,
      specification: "Plan a release",
      status: "suspended",
      workflowState: {},
      currentStep: "plan",
      epoch: 4,
      waitingToolCount: 3,
      resumeDeadline: deadline,
      watchdogNote: `${at(100).toISOString()}: lease of worker-a expired at epoch 2; reclaimed as epoch 3`,
      createdAt: at(0),
      startedAt: at(1),
    },
  });
  await db.run.create({
    data: { id: childId, workflowVersionId: versionId, specification: "Write the changelog", status: "running", workflowState: {}, parentRunId: parentId, parentCallId: calls.workflow, createdAt: at(301) },
  });
  const wait = { runId: parentId, stepName: "plan", attempt: 1, deadlineAt: deadline };
  await db.toolWait.createMany({
    data: [
      { ...wait, id: calls.answered, callKey: "plan/attempt-1/call-0", tool: "lookup_owner", kind: "external", input: { service: "billing" }, status: "reported", result: { owner: "ada" }, reportedBy: "ops@example.com", reportedAt: at(200), createdAt: at(150) },
      { ...wait, id: calls.timedOut, callKey: "plan/attempt-1/call-1", tool: "ping_pager", kind: "external", input: {}, status: "timed_out", deadlineAt: at(250), reportedBy: "watchdog", reportedAt: at(251), createdAt: at(160) },
      {
        ...wait,
        id: calls.person,
        callKey: "plan/attempt-2/call-0",
        attempt: 2,
        tool: "ask_release_manager",
        kind: "person",
        input: { topic: "freeze" },
        question: "May we freeze main on Friday?",
        resultSchema: { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] },
        createdAt: at(300),
      },
      { ...wait, id: calls.workflow, callKey: "plan/attempt-2/call-1", attempt: 2, tool: "write_changelog", kind: "workflow", input: { since: "v1.2" }, workflow: "changelog", childRunId: childId, createdAt: at(300) },
      {
        ...wait,
        id: calls.external,
        callKey: "plan/attempt-2/call-2",
        attempt: 2,
        tool: "deploy_check",
        kind: "external",
        input: { env: "staging" },
        resultSchema: { type: "object", properties: { note: { type: "string" }, healthy: { type: "boolean" } }, required: ["healthy"] },
        createdAt: at(300),
      },
    ],
  });
  // Shaped as server/worker/execute-turn.ts and the watchdog's reclaim write them.
  await db.turnRecord.createMany({
    data: [
      { id: randomUUID(), runId: parentId, epoch: 1, kind: "start", workerId: "worker-a", outcome: "suspended", reason: "waiting for lookup_owner (external), ping_pager (external)", detail: { calls: ["lookup_owner", "ping_pager"] }, endedAt: at(161) },
      { id: randomUUID(), runId: parentId, epoch: 2, kind: "report", workerId: "worker-a", outcome: "lost", reason: "the lease of worker-a expired; the watchdog reclaimed the run", endedAt: at(100 + 150) },
      { id: randomUUID(), runId: parentId, epoch: 3, kind: "report", workerId: "worker-b", outcome: "deferred", reason: "database unavailable", endedAt: at(290) },
      {
        id: randomUUID(),
        runId: parentId,
        epoch: 4,
        kind: "report",
        workerId: "worker-b",
        outcome: "suspended",
        reason: "waiting for ask_release_manager (person), write_changelog (workflow), deploy_check (external)",
        detail: { calls: ["ask_release_manager", "write_changelog", "deploy_check"] },
        endedAt: at(302),
      },
    ],
  });
  await db.inboxMessage.create({ data: { id: randomUUID(), runId: parentId, kind: "timeout", status: "done", payload: { escalationId: "esc-expired-1" }, nextRetryAt: at(120), createdAt: at(120) } });
  let edges = 0;
  const edge = (seconds: number, fields: { runId: string; primitive: string; phase: string; kind?: string; fromRunId?: string; callId?: string; detail?: Record<string, string | number> }) => ({ id: `${suffix}-e${String(++edges).padStart(2, "0")}`, createdAt: at(seconds), ...fields });
  await db.executionEdge.createMany({
    data: [
      edge(0, { runId: parentId, primitive: "enqueue", phase: "request", kind: "start" }),
      edge(150, { runId: parentId, primitive: "tool_call", phase: "request", kind: "external", callId: calls.answered, detail: { tool: "lookup_owner", step: "plan", attempt: 1 } }),
      edge(200, { runId: parentId, primitive: "report", phase: "response", kind: "report", callId: calls.answered, detail: { tool: "lookup_owner", by: "ops@example.com" } }),
      edge(251, { runId: parentId, primitive: "report", phase: "response", kind: "report", callId: calls.timedOut, detail: { tool: "ping_pager", by: "watchdog" } }),
      edge(300, { runId: parentId, primitive: "tool_call", phase: "request", kind: "person", callId: calls.person, detail: { tool: "ask_release_manager", step: "plan", attempt: 2 } }),
      edge(300, { runId: parentId, primitive: "tool_call", phase: "request", kind: "workflow", callId: calls.workflow, detail: { tool: "write_changelog", step: "plan", attempt: 2 } }),
      edge(300, { runId: parentId, primitive: "tool_call", phase: "request", kind: "external", callId: calls.external, detail: { tool: "deploy_check", step: "plan", attempt: 2 } }),
      // The sub-run's creation (server/durable/store/tool-waits.ts): its join request, then its start message, both from the parent.
      edge(301, { runId: childId, primitive: "join", phase: "request", kind: "workflow", fromRunId: parentId, callId: calls.workflow }),
      edge(301, { runId: childId, primitive: "enqueue", phase: "request", kind: "start", fromRunId: parentId, callId: calls.workflow }),
    ],
  });
  return { parentId, childId, calls, at };
}
