import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DurableStore } from "@/server/durable/durable-store";
import { advanceEscalationClock } from "@/server/durable/testing/escalation-clock";
import { startSmtpSink, type SmtpSink } from "@/server/notifications/testing/smtp-sink";
import { openSqlClient } from "@/server/persistence/sql/open-sql-client";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/server/persistence/testing/test-database";
import { sweep } from "@/server/worker/watchdog";
import { cheapWorkflow } from "@/server/worker/testing/cheap-workflow";
import { saveWorkflowDefinition } from "../workflows/save-definition";
import { deliverDueEscalationEmails, type EmailDeliveryConfig } from "./deliver-escalation-emails";
import { queueHandoffNotifications } from "./queue-handoff-notifications";
import { createSmtpTransport } from "./smtp-transport";

const HOUR = 3_600_000;

describe.each(TEST_PROVIDERS)("hand-off notifications (%s)", (provider) => {
  let database: TestDatabase;
  let store: DurableStore;
  let sink: SmtpSink;
  let config: EmailDeliveryConfig;
  let versionId: string;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    store = new DurableStore(openSqlClient(database.url));
    versionId = (await saveWorkflowDefinition(database.db, cheapWorkflow())).versionId;
    const users = [
      { id: "u-ada", email: "ada@example.test", role: "reviewer" as const },
      { id: "u-bob", email: "bob@example.test", role: "reviewer" as const, notifyByEmail: false, notifyBySlack: true, slackUserId: "U0BOB" },
      { id: "u-cy", email: "cy@example.test", role: "admin" as const },
      { id: "u-dan", email: "dan@example.test", role: "reviewer" as const },
      { id: "u-vic", email: "vic@example.test", role: "viewer" as const },
    ];
    for (const user of users) await database.db.user.create({ data: { name: user.email, ...user } });
    const groups = { security: ["u-dan"], oncall: ["u-ada", "u-bob", "u-vic"], leads: ["u-cy"], quiet: ["u-ada"] };
    for (const [name, members] of Object.entries(groups)) {
      await database.db.reviewerGroup.create({ data: { id: `g-${name}`, name, notifyEmail: name !== "quiet", members: { create: members.map((userId) => ({ userId })) } } });
    }
    sink = await startSmtpSink();
    config = { transport: createSmtpTransport(sink.url, "Dualstate <dualstate@example.test>"), baseUrl: "https://dualstate.example.test", authSecret: "s".repeat(64), baseDelayMs: 1 };
  });
  afterAll(async () => {
    config.transport.close();
    await sink.close();
    await store.close();
    await database.dispose();
  });
  beforeEach(() => {
    sink.received.length = 0;
  });

  async function escalatedTo(group: string, backup: string, channels = ["email", "slack"]) {
    const runId = randomUUID();
    const artifactId = randomUUID();
    const escalationId = randomUUID();
    const deadline = new Date(Date.now() + 8 * HOUR);
    await database.db.run.create({ data: { id: runId, workflowVersionId: versionId, specification: "hand-offs", status: "suspended", epoch: 1, workflowState: {}, resumeDeadline: deadline } });
    await database.db.artifact.create({ data: { id: artifactId, runId, stepName: "first", guardId: "g_a", attempt: 1, content: "{}", contentHash: "h", passed: false, fatal: true, feedback: "fatal" } });
    const policy = { group, quorum: { approvals: 1, excludeRunStarter: false, rejections: 1 }, deadline: { hours: 8, action: "fail", handoffGroup: null, handoffHours: null }, backup: { group: backup, afterHours: 2 }, channels, rule: "r" };
    await database.db.escalation.create({ data: { id: escalationId, runId, artifactId, stepName: "first", guardId: "g_a", feedback: "fatal", decisionKey: "first/attempt-1/decision", expiresAt: deadline, policy, routedAt: new Date(), reviewGroup: group } });
    return escalationId;
  }
  const deliveries = (escalationId: string) =>
    database.db.notificationDelivery.findMany({ where: { escalationId }, orderBy: [{ channel: "asc" }, { recipient: "asc" }] }).then((rows) => rows.map((row) => `${row.channel} ${row.recipient} ${row.event}${row.failedAt ? " (not sent)" : ""}`));

  it("emails the backup group's reviewers once, and the email says it was handed to them", async () => {
    const escalationId = await escalatedTo("security", "oncall");
    // Not handed off yet: nothing to queue.
    await queueHandoffNotifications(database.db);
    expect(await deliveries(escalationId)).toEqual([]);

    await advanceEscalationClock(database.db, escalationId, 2.5);
    await sweep(store);
    // Several dispatchers at once queue each message once.
    await Promise.all([queueHandoffNotifications(database.db), queueHandoffNotifications(database.db), queueHandoffNotifications(database.db)]);
    // Slack's queue (services/slack) tells bob, who wants Slack only.
    expect(await deliveries(escalationId)).toEqual(["email ada@example.test handoff:oncall"]);

    await deliverDueEscalationEmails(database.db, config);
    const mail = sink.received.filter((received) => received.text.includes(escalationId));
    expect(mail.map((received) => received.to[0])).toEqual(["ada@example.test"]);
    expect(mail[0]!.subject).toBe("[Dualstate] Handed to oncall: Fatal escalation: many-runs / first (g_a)");
    expect(mail[0]!.text).toMatch(/^Handed to your group oncall: nobody claimed or decided this escalation in time/);
  });

  it("a group that cannot be told, or does not exist, gets one row saying why, looked at once", async () => {
    const quiet = await escalatedTo("security", "quiet", ["email"]);
    const missing = await escalatedTo("security", "nobody");
    for (const id of [quiet, missing]) await advanceEscalationClock(database.db, id, 3);
    await sweep(store);
    await queueHandoffNotifications(database.db);
    await queueHandoffNotifications(database.db);
    expect(await deliveries(quiet)).toEqual(["email group:quiet handoff:quiet (not sent)"]);
    expect(await deliveries(missing)).toEqual(["email group:nobody handoff:nobody (not sent)"]);
    expect((await database.db.notificationDelivery.findFirstOrThrow({ where: { escalationId: missing } })).lastError).toBe("not sent: group nobody does not exist");
  });

  it("a Slack message queued first for the hand-off does not stop its emails", async () => {
    const escalationId = await escalatedTo("security", "oncall");
    await advanceEscalationClock(database.db, escalationId, 2.5);
    await sweep(store);
    await database.db.notificationDelivery.create({ data: { id: `slack-first-${escalationId}`, escalationId, recipient: "bob@example.test", channel: "slack", event: "handoff:oncall", nextAttemptAt: new Date() } });
    await queueHandoffNotifications(database.db);
    expect(await deliveries(escalationId)).toEqual(["email ada@example.test handoff:oncall", "slack bob@example.test handoff:oncall"]);
  });

  it("an escalation decided before the pass is not announced", async () => {
    const escalationId = await escalatedTo("security", "leads");
    await advanceEscalationClock(database.db, escalationId, 3);
    await sweep(store);
    await store.resolveEscalation({ escalationId, decision: { decision: "reject", decidedBy: "dan@example.test" } });
    await queueHandoffNotifications(database.db);
    expect(await deliveries(escalationId)).toEqual([]);
  });
});
