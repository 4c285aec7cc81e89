import type { Db } from "@/server/persistence/db";
import { notFound } from "../errors";

export interface RunAttempt {
  step: string;
  attempt: number;
  passed: boolean;
  fatal: boolean;
  feedback: string;
}

/** What `dualstate run --json` and `dualstate runs show --json` print for a run that ended or waits. */
export interface RunReport {
  runId: string;
  /** "running" (or queued…) while it has not ended or suspended yet. */
  status: "success" | "failed" | "escalation" | "cancelled" | "running";
  finalState: string | null;
  artifacts: Record<string, string>;
  failedStep: string | null;
  reason: string | null;
  escalation: { step: string; feedback: string; artifactId: string } | null;
  attempts: RunAttempt[];
}

type Summary = { artifactIds?: Record<string, string>; failedStep?: string | null; reason?: string | null; finalState?: string };

/** Reads a run's report from the database: its last run.finished or run.suspended entry, its attempts, its pending escalation. */
export async function buildRunReport(db: Db, runId: string): Promise<RunReport> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { id: true, status: true, currentState: true } });
  if (!run) throw notFound("Run", runId);
  const entries = await db.ledgerEntry.findMany({
    where: { runId, type: { in: ["guard.completed", "run.finished", "run.suspended"] } },
    orderBy: { seq: "asc" },
    select: { type: true, payload: true },
  });
  const attempts = entries
    .filter((entry) => entry.type === "guard.completed")
    .map(({ payload }) => {
      const p = payload as Record<string, unknown>;
      return { step: String(p.step), attempt: Number(p.attempt), passed: p.passed === true, fatal: p.fatal === true, feedback: typeof p.feedback === "string" ? p.feedback : "" };
    });
  const summary = (entries.filter((entry) => entry.type !== "guard.completed").at(-1)?.payload ?? {}) as Summary;
  const artifactIds = summary.artifactIds ?? {};
  const rows = await db.artifact.findMany({ where: { runId, id: { in: Object.values(artifactIds) } }, select: { id: true, content: true } });
  const contentOf = new Map(rows.map((row) => [row.id, row.content]));
  const artifacts = Object.fromEntries(Object.entries(artifactIds).flatMap(([guardId, id]) => (contentOf.has(id) ? [[guardId, contentOf.get(id) as string]] : [])));

  const pending = run.status === "suspended" ? await db.escalation.findFirst({ where: { runId, status: "pending" }, orderBy: { createdAt: "desc" } }) : null;
  const status: RunReport["status"] =
    run.status === "succeeded" ? "success" : run.status === "failed" ? "failed" : run.status === "cancelled" ? "cancelled" : run.status === "suspended" || run.status === "escalated" ? "escalation" : "running";
  return {
    runId,
    status,
    finalState: summary.finalState ?? run.currentState,
    artifacts,
    failedStep: status === "success" || status === "running" ? null : (pending?.stepName ?? summary.failedStep ?? null),
    reason: status === "failed" || status === "cancelled" ? (summary.reason ?? null) : null,
    escalation: pending ? { step: pending.stepName, feedback: pending.feedback, artifactId: pending.artifactId } : null,
    attempts,
  };
}
