import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, TEST_PROVIDERS } from "../persistence/testing/test-database";
import { DurableStore } from "../durable/durable-store";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { saveWorkflowDefinition } from "../services/workflows/save-definition";
import { cheapWorkflow } from "./testing/cheap-workflow";
import { sweep } from "./watchdog";

const ROUNDS = 200;
const providers = TEST_PROVIDERS;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(providers)("a decision and the watchdog's timeout racing for one suspended run (%s)", (provider) => {
  let database: TestDatabase;
  let decider: DurableStore;
  let watchdog: DurableStore;
  let versionId: string;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    // Two stores, two connections: the racers really are concurrent transactions.
    decider = new DurableStore(openSqlClient(database.url));
    watchdog = new DurableStore(openSqlClient(database.url));
    versionId = (await saveWorkflowDefinition(database.db, cheapWorkflow())).versionId;
  });
  afterAll(async () => {
    await decider.close();
    await watchdog.close();
    await database.dispose();
  });

  /** A run suspended on an escalation whose resume deadline has just passed. */
  async function suspendedRun(): Promise<{ runId: string; escalationId: string }> {
    const runId = randomUUID();
    const artifactId = randomUUID();
    const escalationId = randomUUID();
    const past = new Date(Date.now() - 1000);
    await database.db.run.create({ data: { id: runId, workflowVersionId: versionId, specification: "race", status: "suspended", epoch: 1, workflowState: {}, resumeDeadline: past } });
    await database.db.artifact.create({ data: { id: artifactId, runId, stepName: "first", guardId: "g_a", attempt: 1, content: "{}", contentHash: "h", passed: false, fatal: true, feedback: "fatal" } });
    await database.db.escalation.create({ data: { id: escalationId, runId, artifactId, stepName: "first", guardId: "g_a", feedback: "fatal", decisionKey: "first/attempt-1/decision", expiresAt: past } });
    return { runId, escalationId };
  }

  it(`exactly one wins each of ${ROUNDS} rounds; the loser has no effect`, async () => {
    const tally = { approved: 0, expired: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const { runId, escalationId } = await suspendedRun();
      const [decision] = await Promise.all([
        pause(Math.random() * 3).then(() =>
          decider.resolveEscalation({ escalationId, decision: { decision: "approve", decidedBy: "ada" } }),
        ),
        pause(Math.random() * 3).then(() => sweep(watchdog)),
      ]);

      const escalation = await database.db.escalation.findUniqueOrThrow({ where: { id: escalationId } });
      const decided = await database.db.ledgerEntry.findMany({ where: { runId, type: "escalation.decided" } });
      const inbox = await database.db.inboxMessage.findMany({ where: { runId } });
      expect(decided).toHaveLength(1);
      expect(inbox).toHaveLength(1);
      if (escalation.status === "approved") {
        tally.approved++;
        expect(decision).toEqual({ ok: true, runId });
        expect(escalation.decidedBy).toBe("ada");
        expect(decided[0]?.payload).toMatchObject({ decision: "approve" });
        expect(inbox[0]?.kind).toBe("resume");
      } else {
        tally.expired++;
        expect(escalation.status).toBe("expired");
        expect(decision).toEqual({ ok: false, status: "expired", decidedBy: "watchdog" });
        expect(decided[0]?.payload).toMatchObject({ decision: "expired" });
        expect(inbox[0]?.kind).toBe("timeout");
      }
      expect(decided[0]?.callKey).toBe("event:first/attempt-1/decision");
    }
    // Random timing gives both sides wins; either way every round had exactly one winner.
    expect(tally.approved + tally.expired).toBe(ROUNDS);
  }, 120_000);
});
