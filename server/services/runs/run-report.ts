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
  /** "running" (or queued…) while it has not ended or suspended yet; "waiting": suspended on tool calls (a person, an outside system). */
  status: "success" | "failed" | "escalation" | "waiting" | "cancelled" | "running";
  finalState: string | null;
  artifacts: Record<string, string>;
  failedStep: string | null;
  reason: string | null;
  /** artifactId is null for a budget escalation (kind "budget"). */
  escalation: { kind: string; step: string; feedback: string; artifactId: string | null } | null;
  /** The tool calls a "waiting" run waits for (empty otherwise). */
  waiting: { callId: string; tool: string; kind: string; step: string; question: string | null }[];
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
  const waits =
    run.status === "suspended" && !pending
      ? await db.toolWait.findMany({ where: { runId, status: "waiting" }, orderBy: { createdAt: "asc" }, take: 100, select: { id: true, tool: true, kind: true, stepName: true, question: true } })
      : [];
  const status: RunReport["status"] =
    run.status === "succeeded"
      ? "success"
      : run.status === "failed"
        ? "failed"
        : run.status === "cancelled"
          ? "cancelled"
          : waits.length > 0
            ? "waiting"
            : run.status === "suspended" || run.status === "escalated"
              ? "escalation"
              : "running";
  return {
    runId,
    status,
    finalState: summary.finalState ?? run.currentState,
    artifacts,
    failedStep: status === "success" || status === "running" || status === "waiting" ? null : (pending?.stepName ?? summary.failedStep ?? null),
    reason: status === "failed" || status === "cancelled" ? (summary.reason ?? null) : null,
    escalation: pending ? { kind: pending.kind, step: pending.stepName, feedback: pending.feedback, artifactId: pending.artifactId } : null,
    waiting: waits.map((wait) => ({ callId: wait.id, tool: wait.tool, kind: wait.kind, step: wait.stepName, question: wait.question })),
    attempts,
  };
}
