import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDoorbell } from "@/server/durable/doorbell";
import { decisionLinkKey, newDecisionLinkId, signDecisionLink } from "@/server/notifications/decision-link-token";
import { startSmtpSink, type SmtpSink } from "@/server/notifications/testing/smtp-sink";
import { TEST_PROVIDERS } from "@/server/persistence/testing/test-database";
import { pairDurableStore } from "@/server/services/durable-store-for";
import { RunWorker } from "@/server/worker/run-worker";
import { createDurableFixture, type DurableFixture } from "@/server/worker/testing/durable-fixture";
import { until } from "@/server/testing/until";
import { openDecisionLink } from "../decision-links/open-decision-link";
import { decideByLink } from "../decision-links/decide-by-link";
import { deliverDueEscalationEmails, type EmailDeliveryConfig } from "./deliver-escalation-emails";
import { queueEscalationEmails as queueRoutedEscalationEmails } from "./queue-escalation-emails";
import { routeNewEscalations } from "../routing/route-new-escalations";
import { queueReminders } from "./queue-reminders";
import { emailNotificationsOf, setEmailNotifications } from "../users/email-notifications";
import { createSmtpTransport } from "./smtp-transport";

const SECRET = "s".repeat(64);

/** As the dispatcher does: route new escalations (no routing document: every reviewer), then queue. */
async function queueEscalationEmails(db: Parameters<typeof routeNewEscalations>[0]) {
  await routeNewEscalations(db);
  return queueRoutedEscalationEmails(db);
}
const BASE_URL = "https://dualstate.example.test";
const SHELL_SCRIPT = "import os\n\n\ndef disk_usage(path):\n    os.system('du -sh ' + path)\n\n\ndisk_usage('.')\n";

describe.each(TEST_PROVIDERS)("escalation emails and one-click decisions on %s", (provider) => {
  let fixture: DurableFixture;
  let worker: RunWorker;
  let sink: SmtpSink;
  let config: EmailDeliveryConfig;

  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    pairDurableStore(fixture.database.db, fixture.store);
    worker = new RunWorker(fixture.store, createDoorbell(fixture.database.url), { leaseMs: 5_000, escalationTimeoutMs: 3_600_000, maxRetries: 3, compile: {}, concurrency: 2, pollMs: 100, log: (line) => console.error(line) });
    worker.start();
    const users = [
      { id: "u-ada", email: "ada@example.test", role: "reviewer" as const },
      { id: "u-bob", email: "bob@example.test", role: "admin" as const, notifyByEmail: false },
      { id: "u-cy", email: "cy@example.test", role: "admin" as const },
      { id: "u-vic", email: "vic@example.test", role: "viewer" as const },
      { id: "u-gone", email: "gone@example.test", role: "reviewer" as const, disabled: true },
    ];
    for (const user of users) await fixture.database.db.user.create({ data: { name: user.email, ...user } });
    sink = await startSmtpSink();
    config = { transport: createSmtpTransport(sink.url, "Dualstate <dualstate@example.test>"), baseUrl: BASE_URL, authSecret: SECRET, baseDelayMs: 1 };
  });
  afterAll(async () => {
    config.transport.close();
    await sink.close();
    await worker.stop(1_000);
    await fixture.dispose();
  });
  beforeEach(() => {
    sink.received.length = 0;
    sink.refuseWith = null;
  });

  async function escalatedRun() {
    const cassette = { ...fixture.replay("sandbox-escalation").cassette, steps: { write_script: [SHELL_SCRIPT] } };
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["sandbox-escalation"]!, specification: "disk usage", generatorOverride: { kind: "replay", cassette } });
    const escalation = await until(() => fixture.database.db.escalation.findFirst({ where: { runId, status: "pending" }, include: { artifact: true } }).then((row) => row ?? undefined), 20_000);
    return { runId, escalation };
  }
  const runEnded = (runId: string) =>
    until(async () => {
      const run = await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId } });
      return ["succeeded", "failed", "cancelled"].includes(run.status) ? run : undefined;
    }, 20_000);
  /** Queues and sends every due email; returns the links each recipient got for `escalationId`. */
  async function sendEmails(escalationId: string) {
    await queueEscalationEmails(fixture.database.db);
    await deliverDueEscalationEmails(fixture.database.db, config);
    const links = new Map<string, { approve: string; reject: string; text: string; subject: string }>();
    for (const email of sink.received.filter((mail) => mail.text.includes(`/escalations/${escalationId}`))) {
      const token = (label: string) => new RegExp(`${label}: ${BASE_URL}/decide/(\\S+)`).exec(email.text)?.[1] ?? "";
      links.set(email.to[0]!, { approve: token("Approve"), reject: token("Reject"), text: email.text, subject: email.subject });
    }
    return links;
  }

  it("emails each reviewer who may decide and wants email, once, with what they need to triage", async () => {
    const { runId, escalation } = await escalatedRun();
    const links = await sendEmails(escalation.id);
    expect([...links.keys()].sort()).toEqual(["ada@example.test", "cy@example.test"]);
    const ada = links.get("ada@example.test")!;
    expect(ada.subject).toBe(`[Dualstate] Fatal escalation: sandbox-escalation / write_script (${escalation.guardId})`);
    expect(ada.text).toContain(`run ${runId}`);
    expect(ada.text).toContain(escalation.feedback.split("\n")[0]!);
    expect(ada.text).toMatch(/>\s+5 \|\s+os\.system\('du -sh ' \+ path\)/);
    expect(ada.text).toMatch(/Decide before \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(ada.approve).not.toBe("");
    expect(sink.received.find((mail) => mail.to[0] === "ada@example.test")?.from).toBe(`"Dualstate" <dualstate@example.test>`);

    // Another pass sends nothing again.
    sink.received.length = 0;
    expect(await queueEscalationEmails(fixture.database.db)).toBe(0);
    await deliverDueEscalationEmails(fixture.database.db, config);
    expect(sink.received).toEqual([]);
  });

  it("a reviewer who turns escalation emails off on their account gets none; turned on again, the next one", async () => {
    const ada = { id: "u-ada", email: "ada@example.test", role: "reviewer" as const, via: "session" as const };
    await setEmailNotifications(fixture.database.db, ada, false);
    expect(await emailNotificationsOf(fixture.database.db, ada)).toEqual({ enabled: false });
    const first = await escalatedRun();
    expect([...(await sendEmails(first.escalation.id)).keys()]).toEqual(["cy@example.test"]);
    await setEmailNotifications(fixture.database.db, ada, true);
    const second = await escalatedRun();
    expect([...(await sendEmails(second.escalation.id)).keys()].sort()).toEqual(["ada@example.test", "cy@example.test"]);
  });

  it("opening a link decides nothing; confirming approves once, as the recipient, and the run resumes", async () => {
    const { runId, escalation } = await escalatedRun();
    const links = await sendEmails(escalation.id);
    const ada = links.get("ada@example.test")!;
    // A mail scanner or a link preview: any number of opens, nothing decided.
    for (let i = 0; i < 3; i++) {
      const opened = await openDecisionLink(fixture.database.db, SECRET, ada.approve);
      expect(opened).toMatchObject({ ok: true, decision: "approve", recipient: "ada@example.test", escalation: { id: escalation.id, fatal: true, content: SHELL_SCRIPT, offendingLine: 5 } });
    }
    expect((await fixture.database.db.escalation.findUniqueOrThrow({ where: { id: escalation.id } })).status).toBe("pending");

    const used = await decideByLink(fixture.database.db, SECRET, { token: ada.approve, contentHash: escalation.artifact!.contentHash });
    expect(used).toMatchObject({ ok: true, outcome: { status: "approved", decidedBy: "ada@example.test", decision: "approve" } });
    expect((await runEnded(runId)).status).toBe("succeeded");

    const again = await decideByLink(fixture.database.db, SECRET, { token: ada.approve, contentHash: escalation.artifact!.contentHash });
    expect(again).toMatchObject({ ok: false, reason: expect.stringContaining("already used") });
    // Another reviewer's link now says who decided first.
    expect(await openDecisionLink(fixture.database.db, SECRET, links.get("cy@example.test")!.reject)).toMatchObject({ ok: false, reason: expect.stringContaining("ada@example.test decided first") });
  });

  it("a reject link with feedback rejects with feedback; another reviewer's link is then refused, naming who decided", async () => {
    const { escalation } = await escalatedRun();
    const links = await sendEmails(escalation.id);
    const used = await decideByLink(fixture.database.db, SECRET, { token: links.get("ada@example.test")!.reject, contentHash: escalation.artifact!.contentHash, comment: "no shell calls" });
    expect(used).toMatchObject({ ok: true, outcome: { status: "rejected", decision: "reject_with_feedback", comment: "no shell calls" } });
    const late = await decideByLink(fixture.database.db, SECRET, { token: links.get("cy@example.test")!.approve, contentHash: escalation.artifact!.contentHash });
    expect(late).toMatchObject({ ok: false, reason: expect.stringContaining("ada@example.test decided first") });
  });

  it("of two confirmations of one link at once, exactly one decides", async () => {
    const { escalation } = await escalatedRun();
    const token = (await sendEmails(escalation.id)).get("ada@example.test")!.reject;
    const results = await Promise.all([0, 1, 2].map(() => decideByLink(fixture.database.db, SECRET, { token, contentHash: escalation.artifact!.contentHash })));
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    const row = await fixture.database.db.escalation.findUniqueOrThrow({ where: { id: escalation.id } });
    expect(row).toMatchObject({ status: "rejected", decidedBy: "ada@example.test" });
  });

  it("refuses expired, tampered, foreign-session, changed-artifact and mismatched-confirmation links with reasons", async () => {
    const { escalation } = await escalatedRun();
    const token = (await sendEmails(escalation.id)).get("ada@example.test")!.approve;
    const db = fixture.database.db;
    const link = await db.decisionLink.findFirstOrThrow({ where: { escalationId: escalation.id, recipient: "ada@example.test", decision: "approve" } });

    expect(await openDecisionLink(db, SECRET, token, { now: new Date(link.expiresAt.getTime() + 1) })).toMatchObject({ ok: false, reason: expect.stringContaining("expired") });
    expect(await openDecisionLink(db, SECRET, `${token.slice(0, -2)}AA`)).toMatchObject({ ok: false, reason: expect.stringContaining("not valid") });
    expect(await openDecisionLink(db, "t".repeat(64), token)).toMatchObject({ ok: false, reason: expect.stringContaining("not valid") });
    expect(await openDecisionLink(db, SECRET, token, { signedInAs: "cy@example.test" })).toMatchObject({ ok: false, reason: expect.stringContaining("sent to ada@example.test, but you are signed in as cy@example.test") });
    expect(await openDecisionLink(db, SECRET, token, { signedInAs: "ADA@example.test" })).toMatchObject({ ok: true });
    expect(await decideByLink(db, SECRET, { token, contentHash: "0".repeat(64) })).toMatchObject({ ok: false, reason: expect.stringContaining("another version") });

    // A link bound to another artifact hash (an email about a version that is no longer pending), signed by us.
    const key = decisionLinkKey(SECRET);
    const stale = { linkId: newDecisionLinkId(), escalationId: escalation.id, recipient: "ada@example.test", decision: "approve" as const, contentHash: "a".repeat(64), expiresAt: link.expiresAt };
    await db.decisionLink.create({ data: { id: stale.linkId, escalationId: stale.escalationId, recipient: stale.recipient, decision: stale.decision, contentHash: stale.contentHash, expiresAt: stale.expiresAt } });
    expect(await openDecisionLink(db, SECRET, signDecisionLink(key, stale))).toMatchObject({ ok: false, reason: expect.stringContaining("artifact changed") });

    // A recipient who may no longer decide.
    await db.user.update({ where: { email: "ada@example.test" }, data: { role: "viewer" } });
    try {
      expect(await openDecisionLink(db, SECRET, token)).toMatchObject({ ok: false, reason: expect.stringContaining("may no longer decide") });
    } finally {
      await db.user.update({ where: { email: "ada@example.test" }, data: { role: "reviewer" } });
    }
    // None of it decided anything, and the link still works.
    expect((await db.escalation.findUniqueOrThrow({ where: { id: escalation.id } })).status).toBe("pending");
    expect(await decideByLink(db, SECRET, { token, contentHash: escalation.artifact!.contentHash })).toMatchObject({ ok: true });
  });

  it("retries a refused send with its reason, gives up after the last attempt, and skips escalations decided meanwhile", async () => {
    const { escalation } = await escalatedRun();
    sink.refuseWith = "mailbox full";
    await queueEscalationEmails(fixture.database.db);
    const limited = { ...config, maxAttempts: 2 };
    await deliverDueEscalationEmails(fixture.database.db, limited);
    const retried = await fixture.database.db.notificationDelivery.findFirstOrThrow({ where: { escalationId: escalation.id, recipient: "ada@example.test" } });
    expect(retried).toMatchObject({ attempts: 1, deliveredAt: null, failedAt: null, lastError: expect.stringContaining("mailbox full") });
    await deliverDueEscalationEmails(fixture.database.db, limited, new Date(Date.now() + 120_000));
    const failed = await fixture.database.db.notificationDelivery.findFirstOrThrow({ where: { id: retried.id } });
    expect(failed).toMatchObject({ attempts: 2, deliveredAt: null, lastError: expect.stringContaining("mailbox full") });
    expect(failed.failedAt).toBeInstanceOf(Date);

    // Decided before the email went out: not sent at all.
    sink.refuseWith = null;
    const second = await escalatedRun();
    await queueEscalationEmails(fixture.database.db);
    await fixture.database.db.escalation.update({ where: { id: second.escalation.id }, data: { status: "cancelled" } });
    await deliverDueEscalationEmails(fixture.database.db, config);
    expect(sink.received.filter((mail) => mail.text.includes(second.escalation.id))).toEqual([]);
    expect(await fixture.database.db.notificationDelivery.findFirstOrThrow({ where: { escalationId: second.escalation.id, recipient: "ada@example.test" } })).toMatchObject({ lastError: "not sent: the escalation is cancelled" });
  });

  it("reminds before the deadline on a simulated clock: once per point, the claimer only when claimed, never an escalation that arrived inside the window", async () => {
    const db = fixture.database.db;
    const HOUR = 3_600_000;
    // An escalation raised 47 hours before its deadline, and one claimed by cy; the worker's own deadline is an hour.
    const aged = async (claimedBy: string | null) => {
      const { escalation } = await escalatedRun();
      const expiresAt = escalation.expiresAt!;
      await db.escalation.update({ where: { id: escalation.id }, data: { createdAt: new Date(expiresAt.getTime() - 47 * HOUR), claimedBy, claimedAt: claimedBy ? new Date() : null } });
      return { id: escalation.id, expiresAt };
    };
    const open = await aged(null);
    const claimed = await aged("cy@example.test");
    const fresh = (await escalatedRun()).escalation;
    await queueEscalationEmails(db);
    const reminders = (id: string) => db.notificationDelivery.findMany({ where: { escalationId: id, event: "reminder:24h" }, orderBy: { recipient: "asc" } });

    // 30 hours before the deadline: too early.
    await queueReminders(db, [24], new Date(open.expiresAt.getTime() - 30 * HOUR));
    expect(await reminders(open.id)).toEqual([]);
    // 23 hours before: every reviewer of the open one, the claimer of the claimed one; a second pass adds nothing.
    const at = new Date(open.expiresAt.getTime() - 23 * HOUR);
    await queueReminders(db, [24], at);
    await queueReminders(db, [24], at);
    expect((await reminders(open.id)).map((row) => row.recipient)).toEqual(["ada@example.test", "cy@example.test"]);
    expect((await reminders(claimed.id)).map((row) => row.recipient)).toEqual(["cy@example.test"]);
    // Raised an hour before its deadline: inside the window, so no reminder, and a row says why.
    await queueReminders(db, [24], new Date(fresh.expiresAt!.getTime() - 30 * 60_000));
    expect(await reminders(fresh.id)).toEqual([expect.objectContaining({ lastError: expect.stringContaining("arrived within 24 h of its deadline") })]);

    sink.received.length = 0;
    await deliverDueEscalationEmails(db, config, at);
    const sent = sink.received.filter((mail) => mail.subject.startsWith("[Dualstate] Reminder, 24 h left: "));
    expect(sent.map((mail) => `${mail.to[0]} ${mail.text.includes(open.id) ? "open" : "claimed"}`).sort()).toEqual(["ada@example.test open", "cy@example.test claimed", "cy@example.test open"]);
    expect(sent[0]!.text).toMatch(/^Reminder: this escalation still waits for a decision/);
    expect(sent[0]!.text).toMatch(/Approve: https:\/\/dualstate\.example\.test\/decide\//);
  });
});
