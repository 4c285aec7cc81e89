import { randomUUID } from "node:crypto";
import type { SqlDialect, SqlExecutor, SqlClient } from "../../persistence/sql/sql-client";
import { escalationPolicyOf } from "../../review-policy/escalation-policy";
import { BACKUP_POLICY_ACTOR, DEADLINE_POLICY_ACTOR, HANDOFF_AUDIT_ACTIONS, type HandOffReason } from "../../review-policy/hand-off";

const HOUR_MS = 3_600_000;
/** Escalations one sweep looks at; the next sweep takes the rest. */
const BATCH = 100;

export interface HandedOff {
  readonly escalationId: string;
  readonly runId: string;
  readonly reason: HandOffReason;
  readonly from: string | null;
  readonly to: string;
}

/**
 * Watchdog: pending escalations whose policy names a backup, that nobody claimed within its
 * `afterHours` of being raised (by the database's clock), are offered to the backup group. Each
 * is one transaction whose compare-and-swap (still pending, unclaimed, never handed off, from the
 * group read) lets exactly one of several sweeps do it. One already past its deadline is left to
 * the deadline: nobody is asked to look at what is about to close.
 */
export async function handOffUnclaimedToBackup(sql: SqlClient): Promise<HandedOff[]> {
  const d = sql.dialect;
  const due = await sql.query<{ id: string; policy: unknown }>(
    `SELECT e."id", e."policy" FROM "Escalation" e
     WHERE e."status" = 'pending' AND e."claimedBy" IS NULL AND e."handedOffAt" IS NULL AND e."policy" IS NOT NULL AND ${backupDueAt(d)} <= ${d.now}
       AND (e."expiresAt" IS NULL OR e."expiresAt" > ${d.now})
     ORDER BY e."createdAt" LIMIT ${BATCH}`,
  );
  const handedOff: HandedOff[] = [];
  for (const row of due) {
    const backup = escalationPolicyOf(readPolicy(d, row.policy)).backup;
    if (!backup) continue;
    const done = await sql.transaction(async (tx) => {
      const current = await currentGroup(tx, row.id);
      if (!current) return null;
      const changed = await tx.execute(
        `UPDATE "Escalation" SET "reviewGroup" = ?, "handedOffAt" = ${d.now}
         WHERE "id" = ? AND "status" = 'pending' AND "claimedBy" IS NULL AND "handedOffAt" IS NULL AND COALESCE("reviewGroup", '') = ?
           AND "createdAt" <= ${d.later.sql} AND ("expiresAt" IS NULL OR "expiresAt" > ${d.now})`,
        [backup.group, row.id, current.group ?? "", d.later.param(-backup.afterHours * HOUR_MS)],
      );
      if (changed !== 1) return null;
      const handOff: HandedOff = { escalationId: row.id, runId: current.runId, reason: "backup", from: current.group, to: backup.group };
      await auditHandOff(tx, d, handOff, BACKUP_POLICY_ACTOR, { afterHours: backup.afterHours });
      return handOff;
    });
    if (done) handedOff.push(done);
  }
  return handedOff;
}

export interface DeadlineHandOff {
  readonly escalationId: string;
  readonly group: string;
  readonly hours: number;
}

/**
 * At its deadline, hands a pending escalation to `group` with a new deadline `hours` from now
 * (the database's clock) on the escalation and on its suspended run, in one transaction. The
 * compare-and-swap (still pending, its deadline passed, from the group read) lets one of several
 * sweeps do it: the first moves the deadline, so the others find it no longer overdue.
 */
export async function handOffAtDeadline(sql: SqlClient, handOff: DeadlineHandOff): Promise<HandedOff | null> {
  const d = sql.dialect;
  const extendMs = handOff.hours * HOUR_MS;
  return sql.transaction(async (tx) => {
    const current = await currentGroup(tx, handOff.escalationId);
    if (!current) return null;
    // The escalation first, as a decision does (resolve-escalation.ts): the same lock order.
    const changed = await tx.execute(
      `UPDATE "Escalation" SET "reviewGroup" = ?, "handedOffAt" = ${d.now}, "expiresAt" = ${d.later.sql}
       WHERE "id" = ? AND "status" = 'pending' AND ("expiresAt" IS NULL OR "expiresAt" <= ${d.now}) AND COALESCE("reviewGroup", '') = ?`,
      [handOff.group, d.later.param(extendMs), handOff.escalationId, current.group ?? ""],
    );
    if (changed !== 1) return null;
    const [now] = await tx.query<{ at: string }>(`SELECT ${d.nowIso} AS "at"`);
    const note = `${now?.at ?? "now"}: the deadline of escalation ${handOff.escalationId} passed; handed to ${handOff.group} for ${handOff.hours} h (deadline policy)`;
    // The run waits exactly as long as the escalation now does (one value: PostgreSQL's clock moves between statements).
    await tx.execute(`UPDATE "Run" SET "resumeDeadline" = (SELECT "expiresAt" FROM "Escalation" WHERE "id" = ?), "watchdogNote" = ?, "updatedAt" = ${d.now} WHERE "id" = ? AND "status" = 'suspended'`, [
      handOff.escalationId,
      note,
      current.runId,
    ]);
    const done: HandedOff = { escalationId: handOff.escalationId, runId: current.runId, reason: "deadline", from: current.group, to: handOff.group };
    await auditHandOff(tx, d, done, DEADLINE_POLICY_ACTOR, { hours: handOff.hours });
    return done;
  });
}

async function currentGroup(tx: SqlExecutor, escalationId: string): Promise<{ runId: string; group: string | null } | null> {
  const [row] = await tx.query<{ runId: string; reviewGroup: string | null }>(`SELECT "runId", "reviewGroup" FROM "Escalation" WHERE "id" = ?`, [escalationId]);
  return row ? { runId: row.runId, group: row.reviewGroup } : null;
}

async function auditHandOff(tx: SqlExecutor, d: SqlDialect, handOff: HandedOff, actor: string, extra: Record<string, unknown>): Promise<void> {
  await tx.execute(`INSERT INTO "AuditEvent" ("id", "at", "actorId", "actorEmail", "action", "target", "detail") VALUES (?, ${d.now}, NULL, ?, ?, ?, ?)`, [
    randomUUID(),
    actor,
    HANDOFF_AUDIT_ACTIONS[handOff.reason],
    `escalation:${handOff.escalationId}`,
    d.json({ runId: handOff.runId, from: handOff.from, to: handOff.to, ...extra }),
  ]);
}

/**
 * When an escalation's backup is due: raised + the policy's backup.afterHours, by the database.
 * NULL (never due) for a policy without a numeric afterHours; the JSON is checked before it is
 * read, so a malformed policy cannot break the sweep.
 */
function backupDueAt(d: SqlDialect): string {
  if (d.provider === "postgres") {
    return `(CASE WHEN jsonb_typeof(e."policy"->'backup'->'afterHours') = 'number'
      THEN e."createdAt" + (e."policy"->'backup'->>'afterHours')::float8 * interval '1 hour' END)`;
  }
  return `(CASE WHEN json_valid(e."policy") THEN CASE WHEN json_type(e."policy", '$.backup.afterHours') IN ('integer', 'real')
    THEN strftime('%Y-%m-%dT%H:%M:%f+00:00', e."createdAt", '+' || (json_extract(e."policy", '$.backup.afterHours') * 3600) || ' seconds') END END)`;
}

/** Whether the escalation was already handed off at a deadline: the audit log keeps the record. */
export async function wasHandedOffAtDeadline(sql: SqlExecutor, escalationId: string): Promise<boolean> {
  const rows = await sql.query(`SELECT 1 AS "found" FROM "AuditEvent" WHERE "action" = ? AND "target" = ? LIMIT 1`, [HANDOFF_AUDIT_ACTIONS.deadline, `escalation:${escalationId}`]);
  return rows.length > 0;
}

/** A stored policy as JSON; unreadable text reads as none (the default policy), never an error that stops the sweep. */
export function readPolicy(d: SqlDialect, stored: unknown): unknown {
  try {
    return d.readJson(stored);
  } catch {
    return null;
  }
}
