import { isSampleOutcome, type SampleFacts } from "@/server/experiments/sample-facts";
import type { Db } from "@/server/persistence/db";

/** Runs read per query (an `IN` list stays small on both databases). */
const CHUNK = 500;
const REASON_CHARS = 160;

/**
 * The facts of every sample of an experiment, for the pure results code: its case, outcome, the
 * guarded attempts its run made per step, whether each step passed first time, why it escalated,
 * tokens, cost (maintained on the run by each turn's commit) and latency. A few grouped queries
 * per 500 runs, however many attempts they made.
 */
export async function sampleFactsOf(db: Db, experimentId: string): Promise<SampleFacts[]> {
  const samples = await db.experimentSample.findMany({ where: { experimentId }, select: { caseId: true, sample: true, runId: true, outcome: true, startedAt: true, finishedAt: true } });
  const caseIds = [...new Set(samples.map((sample) => sample.caseId))];
  const cases = new Map<string, { key: string; position: number }>();
  for (const ids of chunks(caseIds)) {
    for (const item of await db.datasetCase.findMany({ where: { id: { in: ids } }, select: { id: true, key: true, position: true } })) cases.set(item.id, item);
  }
  const runIds = samples.flatMap((sample) => (sample.runId ? [sample.runId] : []));
  const runs = new Map<string, { promptTokens: number; completionTokens: number; costUsd: number; startedAt: Date | null; createdAt: Date; finishedAt: Date | null }>();
  const attempts = new Map<string, Record<string, number>>();
  const retried = new Set<string>();
  const reasons = new Map<string, string[]>();
  for (const ids of chunks(runIds)) {
    for (const run of await db.run.findMany({ where: { id: { in: ids } }, select: { id: true, promptTokens: true, completionTokens: true, costUsd: true, startedAt: true, createdAt: true, finishedAt: true } })) runs.set(run.id, run);
    const perStep = await db.artifact.groupBy({ by: ["runId", "stepName"], where: { runId: { in: ids }, stepKind: "action_pair" }, _count: { _all: true } });
    for (const row of perStep) attempts.set(row.runId, { ...attempts.get(row.runId), [row.stepName]: row._count._all });
    const notFirstTime = await db.artifact.groupBy({ by: ["runId"], where: { runId: { in: ids }, stepKind: "action_pair", OR: [{ attempt: { gt: 1 } }, { passed: false }] }, _count: { _all: true } });
    for (const row of notFirstTime) retried.add(row.runId);
    const escalations = await db.escalation.findMany({ where: { runId: { in: ids } }, select: { runId: true, kind: true, stepName: true, guardId: true, feedback: true }, orderBy: { createdAt: "asc" } });
    for (const escalation of escalations) reasons.set(escalation.runId, [...(reasons.get(escalation.runId) ?? []), reasonOf(escalation)]);
  }
  return samples.map((sample): SampleFacts => {
    const item = cases.get(sample.caseId);
    const run = sample.runId ? runs.get(sample.runId) : undefined;
    const outcome = isSampleOutcome(sample.outcome) ? sample.outcome : null;
    const start = run?.startedAt ?? sample.startedAt;
    const end = outcome ? (sample.finishedAt ?? run?.finishedAt ?? null) : null;
    return {
      caseKey: item?.key ?? sample.caseId,
      position: item?.position ?? 0,
      sample: sample.sample,
      runId: sample.runId,
      outcome,
      attemptsByStep: (sample.runId && attempts.get(sample.runId)) || {},
      firstAttemptPassed: sample.runId !== null && !retried.has(sample.runId),
      escalationReasons: (sample.runId && reasons.get(sample.runId)) || [],
      promptTokens: run?.promptTokens ?? 0,
      completionTokens: run?.completionTokens ?? 0,
      costUsd: run?.costUsd ?? 0,
      latencyMs: start && end ? Math.max(0, end.getTime() - start.getTime()) : null,
    };
  });
}

/** "budget", or "step/guard: the feedback's first line", short enough to group by. */
function reasonOf(escalation: { kind: string; stepName: string; guardId: string; feedback: string }): string {
  if (escalation.kind === "budget") return `${escalation.stepName}: budget crossed`;
  const firstLine = escalation.feedback.split("\n").find((line) => line.trim() !== "")?.trim() ?? "fatal verdict";
  const reason = `${escalation.stepName}/${escalation.guardId}: ${firstLine}`;
  return reason.length > REASON_CHARS ? `${reason.slice(0, REASON_CHARS - 1)}…` : reason;
}

function chunks<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let index = 0; index < items.length; index += CHUNK) result.push(items.slice(index, index + CHUNK));
  return result;
}
