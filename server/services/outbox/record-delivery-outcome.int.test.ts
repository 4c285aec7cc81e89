import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/server/persistence/testing/test-database";
import { cheapWorkflow } from "@/server/worker/testing/cheap-workflow";
import { saveWorkflowDefinition } from "../workflows/save-definition";
import { failureOf, recordDeliveryOutcome, type OutboxRows } from "./record-delivery-outcome";

const NOW = new Date("2030-01-01T00:00:00Z");
const LATER = new Date("2030-01-02T00:00:00Z");
const TABLES = ["notificationDelivery", "webhookDelivery"] as const;

describe.each(TEST_PROVIDERS)("recording an outbox attempt's outcome (%s)", (provider) => {
  let database: TestDatabase;
  let escalationId: string;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    const db = database.db;
    const { versionId } = await saveWorkflowDefinition(db, cheapWorkflow());
    const runId = randomUUID();
    const artifactId = randomUUID();
    escalationId = randomUUID();
    await db.run.create({ data: { id: runId, workflowVersionId: versionId, specification: "outbox", status: "suspended", epoch: 1, workflowState: {} } });
    await db.artifact.create({ data: { id: artifactId, runId, stepName: "first", guardId: "g_a", attempt: 1, content: "{}", contentHash: "h", passed: false, fatal: true, feedback: "fatal" } });
    await db.escalation.create({ data: { id: escalationId, runId, artifactId, stepName: "first", guardId: "g_a", feedback: "fatal", decisionKey: "first/attempt-1/decision" } });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  /** A claimed row (attempt `attempts` under way, next attempt far off) in `table`. */
  async function claimedRow(table: (typeof TABLES)[number], attempts: number): Promise<{ id: string; rows: OutboxRows; read(): Promise<{ deliveredAt: Date | null; failedAt: Date | null; nextAttemptAt: Date; lastError: string | null }> }> {
    const id = randomUUID();
    const claim = { id, escalationId, attempts, nextAttemptAt: LATER, lastError: "the previous attempt's error" };
    if (table === "notificationDelivery") {
      await database.db.notificationDelivery.create({ data: { ...claim, recipient: `${id}@example.test`, channel: "email", event: "created" }, select: { id: true } });
      return { id, rows: database.db.notificationDelivery, read: () => database.db.notificationDelivery.findUniqueOrThrow({ where: { id } }) };
    }
    await database.db.webhookDelivery.create({ data: { ...claim, event: id, payload: "{}" }, select: { id: true } });
    return { id, rows: database.db.webhookDelivery, read: () => database.db.webhookDelivery.findUniqueOrThrow({ where: { id } }) };
  }

  describe.each(TABLES)("in %s", (table) => {
    it("marks a send that went out delivered and clears the last error", async () => {
      const row = await claimedRow(table, 1);
      const outcome = await recordDeliveryOutcome(row.rows, { id: row.id, attempts: 1, maxAttempts: 3, baseDelayMs: 1_000, now: NOW }, await failureOf(async () => {}));
      expect(outcome).toBe("delivered");
      const stored = await row.read();
      expect(stored.deliveredAt).not.toBeNull();
      expect(stored.failedAt).toBeNull();
      expect(stored.lastError).toBeNull();
    });

    it("schedules a failed send again after the backoff from the pass's time, keeping the error", async () => {
      const row = await claimedRow(table, 2);
      const failure = await failureOf(() => Promise.reject(new Error("connection refused")));
      const outcome = await recordDeliveryOutcome(row.rows, { id: row.id, attempts: 2, maxAttempts: 3, baseDelayMs: 1_000, now: NOW }, failure);
      expect(outcome).toBe("retried");
      const stored = await row.read();
      // The second attempt failed: base · 2^(2-1).
      expect(stored.nextAttemptAt).toEqual(new Date(NOW.getTime() + 2_000));
      expect(stored.deliveredAt).toBeNull();
      expect(stored.failedAt).toBeNull();
      expect(stored.lastError).toBe("connection refused");
    });

    it("gives up at the last attempt, keeping the error", async () => {
      const row = await claimedRow(table, 3);
      const outcome = await recordDeliveryOutcome(row.rows, { id: row.id, attempts: 3, maxAttempts: 3, now: NOW }, { error: "HTTP 503 Service Unavailable" });
      expect(outcome).toBe("failed");
      const stored = await row.read();
      expect(stored.failedAt).not.toBeNull();
      expect(stored.deliveredAt).toBeNull();
      expect(stored.nextAttemptAt).toEqual(LATER);
      expect(stored.lastError).toBe("HTTP 503 Service Unavailable");
    });

    it("keeps the first 500 characters of a long error, also from a send that throws before its promise", async () => {
      const row = await claimedRow(table, 1);
      const failure = await failureOf(() => {
        throw new Error(`${"x".repeat(500)}and the rest`);
      });
      await recordDeliveryOutcome(row.rows, { id: row.id, attempts: 1, maxAttempts: 3, now: NOW }, failure);
      expect((await row.read()).lastError).toBe("x".repeat(500));
    });
  });
});
