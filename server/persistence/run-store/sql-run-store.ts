import { createHash, randomUUID } from "node:crypto";
import { initialWorkflowState, isStepKind, type StoredArtifact } from "../../engine";
import type { SqlClient, SqlExecutor, SqlValue } from "../sql/sql-client";
import { LeaseLostError, type ClaimedTurn, type HeadPatch, type InboxKind, type LedgerRow, type TurnBatch, type TurnSnapshot } from "./types";

const TERMINAL = "('succeeded','failed','escalated','cancelled')";

export interface NewDurableRun {
  readonly workflowVersionId: string;
  readonly specification: string;
  readonly contextValues?: Readonly<Record<string, boolean | number | string>>;
  readonly generatorOverride?: unknown;
}

export interface EscalationResolution {
  readonly escalationId: string;
  readonly status: "approved" | "rejected" | "expired";
  /** What the resumed run reads back under the escalation's decision key. */
  readonly decision: Readonly<Record<string, unknown>>;
  readonly decidedBy: string;
  readonly comment?: string | null;
  /** The inbox message that resumes the run. */
  readonly kind: "resume" | "timeout";
  readonly note?: string;
  /** The decision's name and the content hash of the artifact it was made on, kept on the escalation row. */
  readonly decisionName?: string;
  readonly decidedHash?: string;
  /** Who decided, for the audit log: written in the decision's transaction (absent for the watchdog). */
  readonly auditActor?: { readonly id: string | null; readonly email: string };
}

type SnapshotRow = { specification: string; contextValues: unknown; generatorOverride: unknown; definition: unknown; lastSeq: number | null; keyed: unknown; artifacts: unknown };

export type ResolutionOutcome =
  | { readonly ok: true; readonly runId: string }
  | { readonly ok: false; readonly status: string; readonly decidedBy: string | null };

/**
 * A time-ordered UUID (version 7 layout): rows inserted one after another land next to each other
 * in the primary key's B-tree, so a commit dirties fewer pages than with random ids.
 */
export function timeOrderedId(now = Date.now()): string {
  const hex = now.toString(16).padStart(12, "0") + randomUUID().replace(/-/g, "").slice(12);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A stable id for what `key` names in the run: a regenerated attempt keeps its id. It starts with
 * the run id's time prefix (runs have time-ordered ids), so a run's artifacts sit together in the
 * primary key's B-tree instead of dirtying a random page each.
 */
export function derivedId(runId: string, key: string): string {
  const hash = createHash("sha256").update(`${runId}\u0000${key}`).digest("hex");
  const prefix = /^[0-9a-f]{8}-[0-9a-f]{4}-7/.test(runId) ? runId.slice(0, 8) + runId.slice(9, 13) : hash.slice(0, 12);
  const hex = prefix + hash.slice(12);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The durable run protocol (003) over SQL: runs and their inbox, claims that open a turn with a
 * new epoch, commits guarded by compare-and-swap on (epoch, active turn), leases, deferral with
 * backoff, the watchdog's reclaims and timeouts, and escalation decisions that resume runs.
 * Every method is one transaction (the PostgreSQL claim is one statement).
 */
export class SqlRunStore {
  constructor(readonly sql: SqlClient) {}

  private get d() {
    return this.sql.dialect;
  }

  /** Creates a queued run of a workflow version with its start message, in one transaction. */
  async enqueueRun(run: NewDurableRun, now = new Date()): Promise<{ runId: string }> {
    // Time-ordered: a run's rows in every (runId, …) index land next to the newest runs' rows.
    const runId = timeOrderedId(now.getTime());
    const ts = this.d.timestamp(now);
    await this.sql.transaction(async (tx) => {
      await tx.execute(
        `INSERT INTO "Run" ("id", "workflowVersionId", "specification", "status", "workflowState", "contextValues", "generatorOverride", "createdAt", "updatedAt") VALUES (?, ?, ?, 'queued', ?, ?, ?, ?, ?)`,
        [runId, run.workflowVersionId, run.specification, this.d.json(initialWorkflowState), this.d.json(run.contextValues ?? {}), run.generatorOverride === undefined ? null : this.d.json(run.generatorOverride), ts, ts],
      );
      await this.#insertMessage(tx, runId, "start", {}, now);
    });
    this.onMessage?.();
    return { runId };
  }

  /**
   * Rung after a message is committed: the doorbell (003: a wake-up only, the inbox is the truth).
   * On PostgreSQL the NOTIFY goes out inside the transaction, so it is delivered on commit.
   */
  onMessage?: () => void;

  async #insertMessage(tx: SqlExecutor, runId: string, kind: InboxKind, payload: unknown, now: Date): Promise<void> {
    if (this.d.provider === "postgres") await tx.query(`SELECT pg_notify('dualstate_inbox', ?)`, [runId]);
    const ts = this.d.timestamp(now);
    await tx.execute(`INSERT INTO "InboxMessage" ("id", "runId", "kind", "status", "payload", "nextRetryAt", "createdAt") VALUES (?, ?, ?, 'pending', ?, ?, ?)`, [
      timeOrderedId(now.getTime()),
      runId,
      kind,
      this.d.json(payload),
      ts,
      ts,
    ]);
  }

  /**
   * Claims the next due message (by next_retry_at, created_at) of a run no one holds, and in the
   * same statement or transaction moves the run's head to dispatched with a new epoch and turn.
   * A cancel message is claimable even while another turn holds the run: it takes the run over.
   */
  async claim(workerId: string, leaseMs: number, now = new Date(), onlyRunId?: string): Promise<ClaimedTurn | null> {
    const ts = this.d.timestamp(now);
    const leaseUntil = this.d.timestamp(new Date(now.getTime() + leaseMs));
    const turnId = randomUUID();
    const due = `m."status" IN ('pending','deferred') AND m."nextRetryAt" <= ? AND r."status" NOT IN ${TERMINAL} AND (r."status" IN ('queued','suspended') OR m."kind" = 'cancel')${onlyRunId === undefined ? "" : ` AND m."runId" = ?`}`;
    const dueParams: SqlValue[] = onlyRunId === undefined ? [ts] : [ts, onlyRunId];
    type Row = { id: string; runId: string; kind: InboxKind; payload: unknown; retryCount: number; deferReason: string | null; epoch: number };
    if (this.d.provider === "postgres") {
      type RowWithSnapshot = Row & SnapshotRow;
      // The claim's commit need not wait for the disk: lost in a crash, the message is simply due
      // again; and the turn's first durable commit (a compare-and-swap on this epoch) flushes the
      // log up to and including the claim before anything depends on it.
      const rows = await this.sql.queryWithoutWaitingForDisk<RowWithSnapshot>(
        `WITH next AS (
           SELECT m."id", m."runId" FROM "InboxMessage" m JOIN "Run" r ON r."id" = m."runId"
           WHERE ${due} ORDER BY m."nextRetryAt", m."createdAt" LIMIT 1 ${this.d.skipLocked("m, r")}
         ), head AS (
           UPDATE "Run" r SET "status" = 'dispatched', "epoch" = r."epoch" + 1, "activeTurnId" = ?, "leaseOwner" = ?, "leaseExpiresAt" = ?, "updatedAt" = ?
           FROM next WHERE r."id" = next."runId" RETURNING r."id", r."epoch"
         ), claimed AS (
           UPDATE "InboxMessage" m SET "status" = 'claimed', "claimedBy" = ?, "claimedAt" = ?, "epoch" = head."epoch"
           FROM next, head WHERE m."id" = next."id" RETURNING m."id", m."runId", m."kind", m."payload", m."retryCount", m."deferReason", m."epoch"
         )
         SELECT claimed.*, ${this.#snapshotColumns("r")} FROM claimed JOIN "Run" r ON r."id" = claimed."runId" JOIN "WorkflowVersion" v ON v."id" = r."workflowVersionId"`,
        [...dueParams, turnId, workerId, leaseUntil, ts, workerId, ts],
      );
      const row = rows[0];
      return row
        ? { runId: row.runId, epoch: row.epoch, turnId, messageId: row.id, kind: row.kind, payload: this.d.readJson(row.payload) as Record<string, unknown>, retryCount: row.retryCount, deferReason: row.deferReason, workerId, snapshot: this.#snapshotOf(row.runId, row) }
        : null;
    }
    return this.sql.transaction(async (tx) => {
      const [row] = await tx.query<Row>(
        // The partial index of claimable messages is already in claim order; named, so the planner
        // never prefers an index that makes it sort every due message.
        `SELECT m."id", m."runId", m."kind", m."payload", m."retryCount", m."deferReason", r."epoch" FROM "InboxMessage" m INDEXED BY "InboxMessage_due_partial_idx" JOIN "Run" r ON r."id" = m."runId"
         WHERE ${due} ORDER BY m."nextRetryAt", m."createdAt" LIMIT 1`,
        dueParams,
      );
      if (!row) return null;
      const epoch = row.epoch + 1;
      await tx.execute(`UPDATE "Run" SET "status" = 'dispatched', "epoch" = ?, "activeTurnId" = ?, "leaseOwner" = ?, "leaseExpiresAt" = ?, "updatedAt" = ? WHERE "id" = ?`, [
        epoch,
        turnId,
        workerId,
        leaseUntil,
        ts,
        row.runId,
      ]);
      await tx.execute(`UPDATE "InboxMessage" SET "status" = 'claimed', "claimedBy" = ?, "claimedAt" = ?, "epoch" = ? WHERE "id" = ?`, [workerId, ts, epoch, row.id]);
      return { runId: row.runId, epoch, turnId, messageId: row.id, kind: row.kind, payload: this.d.readJson(row.payload) as Record<string, unknown>, retryCount: row.retryCount, deferReason: row.deferReason, workerId };
    });
  }

  /**
   * The run, its pinned definition and its keyed ledger entries, for a turn to replay: one
   * statement, the keyed entries aggregated into one JSON array.
   */
  async loadTurn(runId: string): Promise<TurnSnapshot> {
    const [run] = await this.sql.query<SnapshotRow>(
      `SELECT ${this.#snapshotColumns("r")} FROM "Run" r JOIN "WorkflowVersion" v ON v."id" = r."workflowVersionId" WHERE r."id" = ?`,
      [runId],
    );
    if (!run) throw new Error(`Run ${runId} has no workflow version to execute`);
    return this.#snapshotOf(runId, run);
  }

  /** The columns of a TurnSnapshot, selected from the run `r` and its version `v`. */
  #snapshotColumns(r: string): string {
    const pg = this.d.provider === "postgres";
    const keyed = pg
      ? `(SELECT COALESCE(jsonb_agg(jsonb_build_array(l."callKey", l."payload")), '[]'::jsonb) FROM "LedgerEntry" l WHERE l."runId" = ${r}."id" AND l."callKey" IS NOT NULL)`
      : `(SELECT COALESCE(json_group_array(json_array(l."callKey", json(l."payload"))), '[]') FROM "LedgerEntry" l WHERE l."runId" = ${r}."id" AND l."callKey" IS NOT NULL)`;
    return `${r}."specification", ${r}."contextValues", ${r}."generatorOverride", v."definition",
      (SELECT MAX(l."seq") FROM "LedgerEntry" l WHERE l."runId" = ${r}."id") AS "lastSeq", ${keyed} AS "keyed",
      ${this.#artifactsJson(`a."runId" = ${r}."id"`)} AS "artifacts"`;
  }

  /** The artifacts matching `where` (over alias `a`), with their dependencies, as one JSON array. */
  #artifactsJson(where: string): string {
    return this.d.provider === "postgres"
      ? `(SELECT COALESCE(jsonb_agg(jsonb_build_array(a."id", a."content", a."attempt", a."parentId", a."contentHash", a."stepName", a."guardId", a."passed", a."fatal", a."feedback", a."language", a."stepKind",
           (SELECT COALESCE(jsonb_object_agg(d."name", d."dependencyId"), '{}'::jsonb) FROM "ArtifactDependency" d WHERE d."artifactId" = a."id"))), '[]'::jsonb) FROM "Artifact" a WHERE ${where})`
      : `(SELECT COALESCE(json_group_array(json_array(a."id", a."content", a."attempt", a."parentId", a."contentHash", a."stepName", a."guardId", a."passed", a."fatal", a."feedback", a."language", a."stepKind",
           json((SELECT COALESCE(json_group_object(d."name", d."dependencyId"), '{}') FROM "ArtifactDependency" d WHERE d."artifactId" = a."id")))), '[]') FROM "Artifact" a WHERE ${where})`;
  }

  #storedArtifacts(json: unknown): StoredArtifact[] {
    type Tuple = [string, string, number, string | null, string, string, string, unknown, unknown, string, string | null, string, Record<string, string>];
    return (this.d.readJson(json) as Tuple[]).map(([id, content, attempt, parentId, contentHash, stepName, guardId, passed, fatal, feedback, language, stepKind, dependencyIds]) => ({
      artifact: Object.freeze({ id, content, version: attempt, parentId, contentHash }),
      stepName,
      stepKind: isStepKind(stepKind) ? stepKind : "action_pair",
      guardId,
      result: Object.freeze({ passed: Boolean(passed), fatal: Boolean(fatal), feedback }),
      dependencyIds,
      language,
    }));
  }

  #snapshotOf(runId: string, row: SnapshotRow): TurnSnapshot {
    return {
      runId,
      specification: row.specification,
      definition: this.d.readJson(row.definition),
      contextValues: (this.d.readJson(row.contextValues) as Record<string, boolean | number | string> | null) ?? {},
      generatorOverride: this.d.readJson(row.generatorOverride) ?? undefined,
      keyed: new Map(this.d.readJson(row.keyed) as [string, Record<string, unknown>][]),
      lastSeq: Number(row.lastSeq ?? 0),
      artifacts: this.#storedArtifacts(row.artifacts),
    };
  }

  /**
   * Writes one batch of a turn: the head update is the compare-and-swap, so a turn that lost the
   * run writes nothing at all. @throws LeaseLostError then.
   */
  async commit(turn: ClaimedTurn, batch: TurnBatch, now = new Date()): Promise<void> {
    if (this.d.provider === "postgres") return this.#commitInOneStatement(turn, batch, now);
    await this.sql.transaction(async (tx) => {
      const update = this.#headUpdate(turn, batch.head, now, batch.end !== undefined);
      const changed = await tx.execute(update.sql, update.params);
      if (changed !== 1) throw new LeaseLostError(turn.runId, turn.epoch);
      await this.#insertLedger(tx, turn.runId, turn.epoch, batch.ledger, now);
      for (const artifact of batch.artifacts) {
        await tx.execute(
          `INSERT INTO "Artifact" ("id", "runId", "stepName", "stepKind", "guardId", "attempt", "parentId", "content", "contentHash", "language", "passed", "fatal", "feedback", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
          [artifact.id, turn.runId, artifact.stepName, artifact.stepKind, artifact.guardId, artifact.attempt, artifact.parentId, artifact.content, artifact.contentHash, artifact.language, this.d.bool(artifact.passed), this.d.bool(artifact.fatal), artifact.feedback, this.d.timestamp(now)],
        );
        for (const [name, dependencyId] of Object.entries(artifact.dependencyIds)) {
          await tx.execute(`INSERT INTO "ArtifactDependency" ("artifactId", "name", "dependencyId") VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, [artifact.id, name, dependencyId]);
        }
      }
      for (const escalation of batch.escalations) {
        await tx.execute(
          `INSERT INTO "Escalation" ("id", "runId", "artifactId", "stepName", "guardId", "feedback", "status", "decisionKey", "expiresAt", "createdAt") VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
          [randomUUID(), turn.runId, escalation.artifactId, escalation.stepName, escalation.guardId, escalation.feedback, escalation.decisionKey, batch.escalationExpiresAt ? this.d.timestamp(batch.escalationExpiresAt) : null, this.d.timestamp(now)],
        );
      }
      if (batch.cancelEscalations) {
        await tx.execute(`UPDATE "Escalation" SET "status" = 'cancelled', "decidedAt" = ? WHERE "runId" = ? AND "status" = 'pending'`, [this.d.timestamp(now), turn.runId]);
      }
      if (batch.end) {
        await tx.execute(`UPDATE "InboxMessage" SET "status" = 'done', "doneAt" = ? WHERE "id" = ?`, [this.d.timestamp(now), batch.end.messageId]);
        // A run that ended has nothing left to do: later messages (a cancel that came too late) close with it.
        if (batch.head.status && ["succeeded", "failed", "escalated", "cancelled"].includes(batch.head.status)) {
          await tx.execute(`UPDATE "InboxMessage" SET "status" = 'done', "doneAt" = ? WHERE "runId" = ? AND "status" IN ('pending','deferred')`, [this.d.timestamp(now), turn.runId]);
        }
      }
    });
  }

  async #insertLedger(tx: SqlExecutor, runId: string, epoch: number, rows: readonly LedgerRow[], now: Date): Promise<void> {
    if (rows.length === 0) return;
    const ts = this.d.timestamp(now);
    const values: SqlValue[] = [];
    for (const row of rows) values.push(timeOrderedId(), runId, row.seq, row.actor, row.type, this.d.json(row.payload), row.callKey, epoch, ts);
    const tuples = rows.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ");
    await tx.execute(`INSERT INTO "LedgerEntry" ("id", "runId", "seq", "actor", "type", "payload", "callKey", "epoch", "createdAt") VALUES ${tuples}`, values);
  }

  /** The compare-and-swap: changes 1 row when this turn still holds the run, 0 when it lost it. */
  #headUpdate(turn: ClaimedTurn, head: HeadPatch, now: Date, release: boolean): { sql: string; params: SqlValue[] } {
    const sets: string[] = [`"updatedAt" = ?`];
    const params: SqlValue[] = [this.d.timestamp(now)];
    const set = (column: string, value: SqlValue) => {
      sets.push(`"${column}" = ?`);
      params.push(value);
    };
    if (head.status !== undefined) set("status", head.status);
    if (head.workflowState !== undefined) set("workflowState", this.d.json(head.workflowState));
    if (head.currentStep !== undefined) set("currentStep", head.currentStep);
    if (head.currentState !== undefined) set("currentState", head.currentState);
    if (head.attemptIncrement) {
      sets.push(`"attemptCount" = "attemptCount" + ?`);
      params.push(head.attemptIncrement);
    }
    if (head.stepsCompletedIncrement) {
      sets.push(`"stepsCompleted" = "stepsCompleted" + ?`);
      params.push(head.stepsCompletedIncrement);
    }
    if (head.finalResult !== undefined) set("finalResult", this.d.json(head.finalResult));
    if (head.startedAt !== undefined) {
      sets.push(`"startedAt" = COALESCE("startedAt", ?)`);
      params.push(this.d.timestamp(head.startedAt));
    }
    if (head.finishedAt !== undefined) set("finishedAt", this.d.timestamp(head.finishedAt));
    if (head.resumeDeadline !== undefined) set("resumeDeadline", head.resumeDeadline ? this.d.timestamp(head.resumeDeadline) : null);
    if (head.watchdogNote !== undefined) set("watchdogNote", head.watchdogNote);
    if (release) sets.push(`"activeTurnId" = NULL`, `"leaseOwner" = NULL`, `"leaseExpiresAt" = NULL`);
    params.push(turn.runId, turn.epoch, turn.turnId);
    return { sql: `UPDATE "Run" SET ${sets.join(", ")} WHERE "id" = ? AND "epoch" = ? AND "activeTurnId" = ?`, params };
  }

  /**
   * PostgreSQL: the whole batch as one statement, one round trip, its own transaction. Every
   * insert selects FROM the head update, so when the compare-and-swap matches no row nothing at
   * all is written. Foreign keys are checked at the end of the statement, so an attempt's
   * dependencies and escalation may name the artifact inserted beside them.
   */
  async #commitInOneStatement(turn: ClaimedTurn, batch: TurnBatch, now: Date): Promise<void> {
    const head = this.#headUpdate(turn, batch.head, now, batch.end !== undefined);
    const ts = this.d.timestamp(now);
    const terminal = batch.end !== undefined && batch.head.status !== undefined && ["succeeded", "failed", "escalated", "cancelled"].includes(batch.head.status);
    // Only the parts this batch needs: every part costs planning and execution even when empty.
    const parts: string[] = [`head AS (${head.sql} RETURNING "id")`];
    const params: SqlValue[] = [...head.params];
    if (batch.ledger.length > 0) {
      const ledger = batch.ledger.map((row) => ({ id: timeOrderedId(), seq: row.seq, actor: row.actor, type: row.type, payload: row.payload, callKey: row.callKey }));
      parts.push(`ledger AS (
         INSERT INTO "LedgerEntry" ("id", "runId", "seq", "actor", "type", "payload", "callKey", "epoch", "createdAt")
         SELECT r."id", head."id", r."seq", r."actor", r."type", r."payload", r."callKey", ?::int, ?::timestamp(3)
         FROM head, jsonb_to_recordset(?::jsonb) AS r("id" text, "seq" int, "actor" text, "type" text, "payload" jsonb, "callKey" text)
         RETURNING 1)`);
      params.push(turn.epoch, ts, JSON.stringify(ledger));
    }
    if (batch.artifacts.length > 0) {
      const artifacts = batch.artifacts.map(({ dependencyIds: _dependencyIds, ...artifact }) => artifact);
      parts.push(`artifacts AS (
         INSERT INTO "Artifact" ("id", "runId", "stepName", "stepKind", "guardId", "attempt", "parentId", "content", "contentHash", "language", "passed", "fatal", "feedback", "createdAt")
         SELECT a."id", head."id", a."stepName", a."stepKind", a."guardId", a."attempt", a."parentId", a."content", a."contentHash", a."language", a."passed", a."fatal", a."feedback", ?::timestamp(3)
         FROM head, jsonb_to_recordset(?::jsonb) AS a("id" text, "stepName" text, "stepKind" text, "guardId" text, "attempt" int, "parentId" text, "content" text, "contentHash" text, "language" text, "passed" boolean, "fatal" boolean, "feedback" text)
         ON CONFLICT DO NOTHING RETURNING 1)`);
      params.push(ts, JSON.stringify(artifacts));
      const dependencies = batch.artifacts.flatMap((artifact) => Object.entries(artifact.dependencyIds).map(([name, dependencyId]) => ({ artifactId: artifact.id, name, dependencyId })));
      if (dependencies.length > 0) {
        parts.push(`dependencies AS (
           INSERT INTO "ArtifactDependency" ("artifactId", "name", "dependencyId")
           SELECT d."artifactId", d."name", d."dependencyId" FROM head, jsonb_to_recordset(?::jsonb) AS d("artifactId" text, "name" text, "dependencyId" text)
           ON CONFLICT DO NOTHING RETURNING 1)`);
        params.push(JSON.stringify(dependencies));
      }
    }
    if (batch.escalations.length > 0) {
      const escalations = batch.escalations.map((escalation) => ({ id: randomUUID(), ...escalation }));
      parts.push(`escalations AS (
         INSERT INTO "Escalation" ("id", "runId", "artifactId", "stepName", "guardId", "feedback", "status", "decisionKey", "expiresAt", "createdAt")
         SELECT e."id", head."id", e."artifactId", e."stepName", e."guardId", e."feedback", 'pending', e."decisionKey", ?::timestamp(3), ?::timestamp(3)
         FROM head, jsonb_to_recordset(?::jsonb) AS e("id" text, "artifactId" text, "stepName" text, "guardId" text, "feedback" text, "decisionKey" text)
         RETURNING 1)`);
      params.push(batch.escalationExpiresAt ? this.d.timestamp(batch.escalationExpiresAt) : null, ts, JSON.stringify(escalations));
    }
    if (batch.cancelEscalations) {
      parts.push(`cancelled AS (UPDATE "Escalation" SET "status" = 'cancelled', "decidedAt" = ?::timestamp(3) WHERE "runId" IN (SELECT "id" FROM head) AND "status" = 'pending' RETURNING 1)`);
      params.push(ts);
    }
    if (batch.end) {
      parts.push(`finished AS (UPDATE "InboxMessage" SET "status" = 'done', "doneAt" = ?::timestamp(3) WHERE "id" = ? AND EXISTS (SELECT 1 FROM head) RETURNING 1)`);
      params.push(ts, batch.end.messageId);
      // A run that ended has nothing left to do: later messages (a cancel that came too late) close with it.
      if (terminal) {
        parts.push(`closed AS (UPDATE "InboxMessage" SET "status" = 'done', "doneAt" = ?::timestamp(3) WHERE "runId" IN (SELECT "id" FROM head) AND "status" IN ('pending', 'deferred') RETURNING 1)`);
        params.push(ts);
      }
    }
    const rows = await this.sql.query<{ changed: number }>(`WITH ${parts.join(",\n")}\nSELECT count(*)::int AS "changed" FROM head`, params);
    if (rows[0]?.changed !== 1) throw new LeaseLostError(turn.runId, turn.epoch);
  }

  /**
   * PostgreSQL plans the claim from table statistics. Tables never analysed (a fresh database,
   * before autovacuum's first pass) look empty to the planner, which then sorts every due message
   * on each claim instead of walking the due index: a cost that grows with the queue. A worker
   * gathers them once when it starts.
   */
  async ensurePlannerStatistics(): Promise<void> {
    if (this.d.provider !== "postgres") return;
    const stale = await this.sql.query<{ relname: string }>(
      `SELECT "relname" FROM pg_stat_user_tables WHERE "relname" IN ('InboxMessage', 'Run') AND "last_analyze" IS NULL AND "last_autoanalyze" IS NULL`,
    );
    for (const { relname } of stale) await this.sql.execute(`ANALYZE "${relname}"`);
  }

  /** Extends the turn's lease; false when the turn no longer holds the run. */
  async renewLease(turn: ClaimedTurn, leaseMs: number, now = new Date()): Promise<boolean> {
    const changed = await this.sql.execute(`UPDATE "Run" SET "leaseExpiresAt" = ? WHERE "id" = ? AND "epoch" = ? AND "activeTurnId" = ?`, [
      this.d.timestamp(new Date(now.getTime() + leaseMs)),
      turn.runId,
      turn.epoch,
      turn.turnId,
    ]);
    return changed === 1;
  }

  /**
   * Gives a turn that failed for a retryable reason back to the inbox: the message is deferred
   * with retry_count + 1 (unless `countsAsRetry` is false: a worker shutting down is not the
   * run's failure) and next_retry_at after `delayMs`, the run is queued and unleased.
   */
  async deferTurn(turn: ClaimedTurn, reason: string, delayMs: number, now = new Date(), countsAsRetry = true): Promise<void> {
    await this.sql.transaction(async (tx) => {
      const changed = await tx.execute(
        `UPDATE "Run" SET "status" = 'queued', "activeTurnId" = NULL, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ? WHERE "id" = ? AND "epoch" = ? AND "activeTurnId" = ?`,
        [this.d.timestamp(now), turn.runId, turn.epoch, turn.turnId],
      );
      if (changed !== 1) throw new LeaseLostError(turn.runId, turn.epoch);
      await tx.execute(`UPDATE "InboxMessage" SET "status" = 'deferred', "retryCount" = "retryCount" + ?, "nextRetryAt" = ?, "deferReason" = ? WHERE "id" = ?`, [
        countsAsRetry ? 1 : 0,
        this.d.timestamp(new Date(now.getTime() + delayMs)),
        reason.slice(0, 2000),
        turn.messageId,
      ]);
    });
  }

  /** One artifact with its dependencies, in one statement. */
  async getArtifact(runId: string, artifactId: string): Promise<StoredArtifact | undefined> {
    const [row] = await this.sql.query<{ artifacts: unknown }>(`SELECT ${this.#artifactsJson(`a."id" = ? AND a."runId" = ?`)} AS "artifacts"`, [artifactId, runId]);
    return row ? this.#storedArtifacts(row.artifacts)[0] : undefined;
  }

  /**
   * Decides a pending escalation and queues the message that resumes its run, in one
   * transaction. Exactly one of several concurrent resolutions (decisions, the watchdog's
   * timeout) wins: the escalation's status moves from pending once; the others learn who won.
   */
  async resolveEscalation(resolution: EscalationResolution, now = new Date()): Promise<ResolutionOutcome> {
    return this.sql.transaction(async (tx): Promise<ResolutionOutcome> => {
      const ts = this.d.timestamp(now);
      const changed = await tx.execute(`UPDATE "Escalation" SET "status" = ?, "decidedBy" = ?, "decidedAt" = ?, "comment" = ?, "decision" = ?, "decidedHash" = ? WHERE "id" = ? AND "status" = 'pending'`, [
        resolution.status,
        resolution.decidedBy,
        ts,
        resolution.comment ?? null,
        resolution.decisionName ?? String(resolution.decision.decision ?? resolution.status),
        resolution.decidedHash ?? null,
        resolution.escalationId,
      ]);
      const [escalation] = await tx.query<{ runId: string; status: string; decidedBy: string | null; decisionKey: string | null }>(
        `SELECT "runId", "status", "decidedBy", "decisionKey" FROM "Escalation" WHERE "id" = ?`,
        [resolution.escalationId],
      );
      if (!escalation) throw new Error(`Escalation ${resolution.escalationId} does not exist`);
      if (changed !== 1) return { ok: false as const, status: escalation.status, decidedBy: escalation.decidedBy };
      const [last] = await tx.query<{ seq: number | null }>(`SELECT MAX("seq") AS "seq" FROM "LedgerEntry" WHERE "runId" = ?`, [escalation.runId]);
      const [run] = await tx.query<{ epoch: number }>(`SELECT "epoch" FROM "Run" WHERE "id" = ?`, [escalation.runId]);
      const row: LedgerRow = {
        seq: Number(last?.seq ?? 0) + 1,
        actor: resolution.kind === "timeout" ? "watchdog" : "human",
        type: "escalation.decided",
        payload: { escalationId: resolution.escalationId, status: resolution.status, ...resolution.decision },
        callKey: escalation.decisionKey ? `event:${escalation.decisionKey}` : null,
      };
      await this.#insertLedger(tx, escalation.runId, run?.epoch ?? 0, [row], now);
      await this.#insertMessage(tx, escalation.runId, resolution.kind, { escalationId: resolution.escalationId }, now);
      await tx.execute(`UPDATE "Run" SET "resumeDeadline" = NULL, "watchdogNote" = COALESCE(?, "watchdogNote"), "updatedAt" = ? WHERE "id" = ?`, [resolution.note ?? null, ts, escalation.runId]);
      if (resolution.auditActor) {
        const detail = { runId: escalation.runId, decision: resolution.decisionName ?? resolution.status, contentHash: resolution.decidedHash ?? null, comment: resolution.comment ?? null };
        await tx.execute(`INSERT INTO "AuditEvent" ("id", "at", "actorId", "actorEmail", "action", "target", "detail") VALUES (?, ?, ?, ?, 'escalation.decided', ?, ?)`, [
          randomUUID(),
          ts,
          resolution.auditActor.id,
          resolution.auditActor.email,
          `escalation:${resolution.escalationId}`,
          this.d.json(detail),
        ]);
      }
      return { ok: true as const, runId: escalation.runId };
    }).then((outcome) => {
      if (outcome.ok) this.onMessage?.();
      return outcome;
    });
  }

  /** Queues a cancel message; the turn that claims it ends the run (taking it over if it runs). */
  async requestCancel(runId: string, reason: string, now = new Date()): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const [run] = await tx.query<{ status: string }>(`SELECT "status" FROM "Run" WHERE "id" = ?`, [runId]);
      if (!run || ["succeeded", "failed", "escalated", "cancelled"].includes(run.status)) return false;
      await this.#insertMessage(tx, runId, "cancel", { reason }, now);
      return true;
    }).then((queued) => {
      if (queued) this.onMessage?.();
      return queued;
    });
  }

  /**
   * Watchdog, part 1: runs whose turn's lease expired (the worker died or hangs) go back to the
   * inbox with a new epoch, so the old turn's late writes fail their compare-and-swap.
   * Returns the runs reclaimed.
   */
  async reclaimExpiredLeases(now: Date, backoffMs: (retryCount: number) => number): Promise<{ runId: string; leaseOwner: string | null; epoch: number }[]> {
    const ts = this.d.timestamp(now);
    const expired = await this.sql.query<{ id: string; epoch: number; leaseOwner: string | null; activeTurnId: string | null }>(
      `SELECT "id", "epoch", "leaseOwner", "activeTurnId" FROM "Run" WHERE "status" IN ('dispatched','running') AND "leaseExpiresAt" < ? LIMIT 100`,
      [ts],
    );
    const reclaimed: { runId: string; leaseOwner: string | null; epoch: number }[] = [];
    for (const run of expired) {
      const done = await this.sql.transaction(async (tx) => {
        const note = `${now.toISOString()}: lease of ${run.leaseOwner ?? "a worker"} expired at epoch ${run.epoch}; reclaimed as epoch ${run.epoch + 1}`;
        const changed = await tx.execute(
          `UPDATE "Run" SET "status" = 'queued', "epoch" = "epoch" + 1, "activeTurnId" = NULL, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "watchdogNote" = ?, "updatedAt" = ? WHERE "id" = ? AND "epoch" = ? AND "status" IN ('dispatched','running') AND "leaseExpiresAt" < ?`,
          [note, ts, run.id, run.epoch, ts],
        );
        if (changed !== 1) return false;
        const claimed = await tx.query<{ id: string; retryCount: number; payload: unknown }>(`SELECT "id", "retryCount", "payload" FROM "InboxMessage" WHERE "runId" = ? AND "status" = 'claimed'`, [run.id]);
        for (const message of claimed) {
          // Counted apart from other retries: a run that keeps killing its worker is given up (execute-turn.ts).
          const payload = (this.d.readJson(message.payload) as Record<string, unknown> | null) ?? {};
          const crashes = (typeof payload.crashes === "number" ? payload.crashes : 0) + 1;
          await tx.execute(`UPDATE "InboxMessage" SET "status" = 'deferred', "retryCount" = "retryCount" + 1, "nextRetryAt" = ?, "deferReason" = ?, "payload" = ? WHERE "id" = ?`, [
            this.d.timestamp(new Date(now.getTime() + backoffMs(message.retryCount + 1))),
            `lease of ${run.leaseOwner ?? "a worker"} expired`,
            this.d.json({ ...payload, crashes }),
            message.id,
          ]);
        }
        return true;
      });
      if (done) reclaimed.push({ runId: run.id, leaseOwner: run.leaseOwner, epoch: run.epoch });
    }
    return reclaimed;
  }

  /** Watchdog, part 2: pending escalations of suspended runs past their resume deadline. */
  async overdueEscalations(now: Date): Promise<{ escalationId: string; runId: string }[]> {
    const rows = await this.sql.query<{ id: string; runId: string }>(
      `SELECT e."id", e."runId" FROM "Escalation" e JOIN "Run" r ON r."id" = e."runId" WHERE r."status" = 'suspended' AND r."resumeDeadline" < ? AND e."status" = 'pending' LIMIT 100`,
      [this.d.timestamp(now)],
    );
    return rows.map((row) => ({ escalationId: row.id, runId: row.runId }));
  }

  /** Messages of runs that already ended can never be claimed; they are closed. */
  async closeMessagesOfEndedRuns(now: Date): Promise<number> {
    return this.sql.execute(
      `UPDATE "InboxMessage" SET "status" = 'done', "doneAt" = ? WHERE "status" IN ('pending','deferred') AND "runId" IN (SELECT "id" FROM "Run" WHERE "status" IN ${TERMINAL})`,
      [this.d.timestamp(now)],
    );
  }

  async close(): Promise<void> {
    await this.sql.close();
  }
}
