import { randomUUID } from "node:crypto";
import type { JsonObject } from "@/server/engine";
import type { Db } from "@/server/persistence/db";
import type { DurableFixture } from "@/server/worker/testing/durable-fixture";

export interface WaitSpec {
  readonly kind: "person" | "external" | "workflow";
  readonly tool?: string;
  readonly question?: string;
  readonly resultSchema?: JsonObject;
  /** From now; negative for a wait already past its deadline. */
  readonly deadlineInMs?: number;
}

/**
 * A run suspended on tool calls, as the engine leaves one (until the engine writes them itself):
 * queued through the store, then its head and waits written directly. Its start message is done,
 * so no worker picks the run up until a report completes its waiting set.
 */
export async function waitingRun(fixture: DurableFixture, waits: readonly WaitSpec[], workflow = "sandbox-escalation"): Promise<{ runId: string; callIds: string[] }> {
  const db: Db = fixture.database.db;
  const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions[workflow]!, specification: "ask before writing" });
  await db.inboxMessage.updateMany({ where: { runId }, data: { status: "done", doneAt: new Date() } });
  await db.run.update({ where: { id: runId }, data: { status: "suspended", waitingToolCount: waits.length, currentStep: "write_script" } });
  const callIds: string[] = [];
  for (const [index, wait] of waits.entries()) {
    const id = randomUUID();
    callIds.push(id);
    await db.toolWait.create({
      data: {
        id,
        runId,
        callKey: `write_script/attempt-1/call-${index + 1}`,
        stepName: "write_script",
        attempt: 1,
        tool: wait.tool ?? `${wait.kind}_tool`,
        kind: wait.kind,
        input: { asked: index },
        question: wait.question ?? null,
        ...(wait.resultSchema ? { resultSchema: wait.resultSchema } : {}),
        deadlineAt: new Date(Date.now() + (wait.deadlineInMs ?? 60 * 60 * 1000)),
      },
    });
  }
  return { runId, callIds };
}
