import type { Db } from "@/server/persistence/db";

/** The run page and `runs show` list the newest turns; a run rarely has more. */
export const TURN_LIMIT = 100;

export interface RunTurn {
  readonly epoch: number;
  /** The inbox message kind that started the turn (start, resume, report, timeout, cancel). */
  readonly kind: string | null;
  readonly workerId: string | null;
  /** succeeded, failed, suspended, cancelled, deferred or lost. */
  readonly outcome: string;
  readonly reason: string | null;
  /** What the turn delivered, in one line: the final artifacts, the calls it waits for, or why it ended. */
  readonly deliverable: string | null;
  readonly endedAt: Date;
}

export interface RunTurns {
  /** The newest TURN_LIMIT turns at most, in epoch order. */
  readonly items: readonly RunTurn[];
  readonly total: number;
}

const MAX_LISTED = 10;
const MAX_REASON_CHARS = 1_000;
const MAX_DELIVERABLE_CHARS = 300;

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

function listed(values: readonly string[]): string {
  const shown = values.slice(0, MAX_LISTED).join(", ");
  return values.length > MAX_LISTED ? `${shown} and ${values.length - MAX_LISTED} more` : shown;
}

/** Artifacts as `name (sha256 prefix)`, from `{ name: hash }`, `[{ name, hash }]` or a list of names. */
function artifactNames(artifacts: unknown): string[] {
  if (Array.isArray(artifacts)) {
    return artifacts.map((artifact) => {
      if (typeof artifact === "string") return artifact;
      if (!isRecord(artifact)) return String(artifact);
      const name = String(artifact.name ?? artifact.guardId ?? artifact.id ?? "?");
      return typeof artifact.hash === "string" || typeof artifact.contentHash === "string" ? `${name} (${String(artifact.hash ?? artifact.contentHash).slice(0, 12)})` : name;
    });
  }
  if (isRecord(artifacts)) return Object.entries(artifacts).map(([name, hash]) => (typeof hash === "string" ? `${name} (${hash.slice(0, 12)})` : name));
  return [];
}

/**
 * The turn's deliverable (003 section 4) from its record's detail: a succeeded turn's final
 * artifacts (`{ artifacts: { guardId: contentHash } }`), a suspended turn's reason (the calls it
 * waits for) or, without one, its detail's calls; otherwise the reason. The detail is read leniently
 * (any part may be missing) and the line is bounded.
 */
export function describeDeliverable(outcome: string, reason: string | null, detail: unknown): string | null {
  const d = isRecord(detail) ? detail : {};
  let line: string | null = null;
  if (outcome === "succeeded") {
    const names = artifactNames(d.artifacts);
    line = names.length > 0 ? `artifacts ${listed(names)}` : "no artifacts";
  } else if (outcome === "suspended" && !reason) {
    // The worker's reason names the calls with their kinds; without one, the detail's list of calls does.
    const calls = [d.calls, d.callIds, d.waiting].find(Array.isArray) as unknown[] | undefined;
    const escalation = typeof d.escalationId === "string" ? d.escalationId : null;
    if (calls && calls.length > 0) line = `waits for ${calls.length === 1 ? "call" : `${calls.length} calls`} ${listed(calls.map((call) => (isRecord(call) ? String(call.tool ?? call.callId ?? call.id ?? "?") : String(call))))}`;
    else if (escalation) line = `waits for escalation ${escalation}`;
  }
  line ??= reason ?? (typeof d.reason === "string" ? d.reason : null);
  return line !== null && line.length > MAX_DELIVERABLE_CHARS ? `${line.slice(0, MAX_DELIVERABLE_CHARS)}…` : line;
}

/** Exactly one row per turn the run has had (TurnRecord is unique by run and epoch). */
export async function listTurns(db: Db, runId: string, limit = TURN_LIMIT): Promise<RunTurns> {
  const [rows, total] = await Promise.all([
    db.turnRecord.findMany({ where: { runId }, orderBy: { epoch: "desc" }, take: limit, select: { epoch: true, kind: true, workerId: true, outcome: true, reason: true, detail: true, endedAt: true } }),
    db.turnRecord.count({ where: { runId } }),
  ]);
  return {
    items: rows.reverse().map(({ detail, ...row }) => ({
      ...row,
      reason: row.reason !== null && row.reason.length > MAX_REASON_CHARS ? `${row.reason.slice(0, MAX_REASON_CHARS)}…` : row.reason,
      deliverable: describeDeliverable(row.outcome, row.reason, detail),
    })),
    total,
  };
}
