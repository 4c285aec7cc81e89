import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDoorbell } from "@/server/durable/doorbell";
import { SLACK_ACTION_IDS } from "@/server/notifications/slack-actions";
import { SlackReplayGuard } from "@/server/notifications/slack-signature";
import { serveRouteHandler, startSlackServer, type SlackPost, type SlackServer } from "@/server/notifications/testing/slack-server";
import { TEST_PROVIDERS } from "@/server/persistence/testing/test-database";
import { pairDurableStore } from "@/server/services/durable-store-for";
import { RunWorker } from "@/server/worker/run-worker";
import { createDurableFixture, type DurableFixture } from "@/server/worker/testing/durable-fixture";
import { until } from "@/server/testing/until";
import { decideByLink } from "../decision-links/decide-by-link";
import { confirmSlackVerificationCode } from "../users/confirm-slack-verification-code";
import { sendSlackVerificationCode } from "../users/send-slack-verification-code";
import { setSlackNotifications, slackNotificationsOf } from "../users/slack-notifications";
import { openDecisionLink } from "../decision-links/open-decision-link";
import { createSlackClient } from "./slack-client";
import type { SlackDeliveryConfig } from "./slack-config";
import { deliverDueSlackNotifications } from "./deliver-slack-notifications";
import type { SlackInteractionConfig } from "./handle-slack-interaction";
import { UNROUTED_GRACE_MS } from "../notifications/escalations-ready-to-notify";
import { queueSlackNotifications } from "./queue-slack-notifications";
import { slackInteractionResponse } from "./slack-interaction-response";
import { responseUrlAllowedFor } from "./slack-interactions-from-env";

const AUTH_SECRET = "s".repeat(64);
const BOT_TOKEN = "xoxb-1234-5678-testtoken";
const SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const BASE_URL = "https://dualstate.example.test";
const SHELL_SCRIPT = "import os\n\n\ndef disk_usage(path):\n    os.system('du -sh ' + path)\n\n\ndisk_usage('.')\n";
const HOUR_MS = 3_600_000;
const APP = { verificationAvailable: true };
const ROUTED = { group: "security", quorum: { approvals: 1, excludeRunStarter: false, rejections: 1 }, deadline: { hours: null, action: "fail" }, backup: null, channels: ["email", "slack"], rule: "auth code" };

describe.each(TEST_PROVIDERS)("Slack notifications and button clicks on %s", (provider) => {
  let fixture: DurableFixture;
  let worker: RunWorker;
  let slack: SlackServer;
  let config: SlackDeliveryConfig;
  let interactions: { url: string; close(): Promise<void> };
  // The answers to clicks, posted after the route's 200 (Next's `after` in the app): run at once
  // and awaited by `click`, or held back to show that the 200 does not wait for them.
  const answers: Promise<void>[] = [];
  let heldAnswers: (() => Promise<void>)[] | null = null;
  const afterResponse = (work: () => Promise<void>) => (heldAnswers ? heldAnswers.push(work) : answers.push(work()));
  const clickSlack = async (...args: Parameters<SlackServer["click"]>) => {
    const clicked = await slack.click(...args);
    await Promise.all(answers.splice(0));
    return clicked;
  };
  const resendSlack = async (...args: Parameters<SlackServer["resend"]>) => {
    const sent = await slack.resend(...args);
    await Promise.all(answers.splice(0));
    return sent;
  };
  let defaultWebhook: string;
  let securityWebhook: string;

  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    pairDurableStore(fixture.database.db, fixture.store);
    worker = new RunWorker(fixture.store, createDoorbell(fixture.database.url), { leaseMs: 5_000, escalationTimeoutMs: 3_600_000, maxRetries: 3, compile: {}, concurrency: 2, pollMs: 100, log: (line) => console.error(line) });
    worker.start();
    slack = await startSlackServer({ botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET });
    defaultWebhook = slack.webhook("T0/B0DEFAULT/secret");
    securityWebhook = slack.webhook("T0/B0SECURITY/secret");
    const db = fixture.database.db;
    const users = [
      { id: "u-ada", email: "ada@example.test", role: "reviewer" as const, notifyBySlack: true, slackUserId: "U0ADA" },
      { id: "u-bob", email: "bob@example.test", role: "admin" as const, notifyBySlack: false, slackUserId: "U0BOB" },
      { id: "u-cy", email: "cy@example.test", role: "reviewer" as const },
      { id: "u-lee", email: "lee@example.test", role: "reviewer" as const, notifyBySlack: true, slackUserId: "U0LEE" },
      { id: "u-vic", email: "vic@example.test", role: "viewer" as const, notifyBySlack: true, slackUserId: "U0VIC" },
      { id: "u-gone", email: "gone@example.test", role: "reviewer" as const, disabled: true, notifyBySlack: true, slackUserId: "U0GONE" },
    ];
    for (const user of users) await db.user.create({ data: { name: user.email, ...user } });
    await db.reviewerGroup.create({ data: { id: "g-sec", name: "security", notifySlack: true, slackWebhookUrl: securityWebhook, members: { create: [{ userId: "u-ada" }, { userId: "u-cy" }] } } });
    await db.reviewerGroup.create({ data: { id: "g-leads", name: "leads", notifySlack: true, slackChannel: "C0LEADS", members: { create: [{ userId: "u-lee" }, { userId: "u-bob" }] } } });
    await db.reviewerGroup.create({ data: { id: "g-quiet", name: "quiet", notifySlack: false, slackChannel: "C0QUIET", members: { create: [{ userId: "u-cy" }] } } });
    config = { client: createSlackClient({ apiUrl: slack.apiUrl, botToken: BOT_TOKEN }), hasApp: true, defaultWebhookUrl: defaultWebhook, baseUrl: BASE_URL, baseDelayMs: 1 };
    const interactionConfig: SlackInteractionConfig = {
      signingSecret: SIGNING_SECRET,
      authSecret: AUTH_SECRET,
      baseUrl: BASE_URL,
      client: createSlackClient({ apiUrl: slack.apiUrl }),
      replayGuard: new SlackReplayGuard(),
      responseUrlAllowed: responseUrlAllowedFor(slack.apiUrl),
    };
    interactions = await serveRouteHandler((request) => slackInteractionResponse(request, db, interactionConfig, afterResponse));
  });
  afterAll(async () => {
    await interactions.close();
    await slack.close();
    await worker.stop(1_000);
    await fixture.dispose();
  });
  beforeEach(() => {
    slack.received.length = 0;
    slack.refused.length = 0;
    slack.refuseWith = null;
  });

  /** Past the grace an unrouted escalation waits for the routing pass. */
  const later = () => new Date(Date.now() + UNROUTED_GRACE_MS + 1_000);

  async function escalatedRun(routing?: { group: string; policy?: object }) {
    const cassette = { ...fixture.replay("sandbox-escalation").cassette, steps: { write_script: [SHELL_SCRIPT] } };
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["sandbox-escalation"]!, specification: "disk usage", generatorOverride: { kind: "replay", cassette } });
    const escalation = await until(() => fixture.database.db.escalation.findFirst({ where: { runId, status: "pending" }, include: { artifact: true } }).then((row) => row ?? undefined), 20_000);
    if (routing) {
      await fixture.database.db.escalation.update({ where: { id: escalation.id }, data: { routedAt: new Date(), routingVersion: 1, reviewGroup: routing.group, policy: { ...ROUTED, group: routing.group, ...routing.policy } } });
    }
    return { runId, escalation };
  }
  const runEnded = (runId: string) =>
    until(async () => {
      const run = await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId } });
      return ["succeeded", "failed", "cancelled"].includes(run.status) ? run : undefined;
    }, 20_000);
  /** Queues and sends what is due; the posts about `escalationId`. */
  async function sendSlack(escalationId: string, now = later()): Promise<SlackPost[]> {
    await queueSlackNotifications(fixture.database.db, config, now);
    await deliverDueSlackNotifications(fixture.database.db, config, now);
    return slack.received.filter((post) => JSON.stringify(post.body).includes(`/escalations/${escalationId}`));
  }
  const destinations = (posts: SlackPost[]) => posts.map((post) => `${post.kind} ${post.to}`).sort();
  const buttonsOf = (post: SlackPost) => {
    const actions = (post.body.blocks as { type: string; elements?: { action_id: string; url?: string; value?: string }[] }[]).find((block) => block.type === "actions");
    return actions?.elements ?? [];
  };

  it("an escalation offered to every reviewer: the default webhook's channel with a review link, and a direct message with buttons to each reviewer on Slack", async () => {
    const { runId, escalation } = await escalatedRun();
    // Not routed yet, and younger than the grace: the routing pass goes first.
    expect(await queueSlackNotifications(fixture.database.db, config, new Date())).toBe(0);

    const posts = await sendSlack(escalation.id);
    expect(destinations(posts)).toEqual(["chat.postMessage U0ADA", "chat.postMessage U0LEE", "webhook /hooks/T0/B0DEFAULT/secret"]);
    const dm = posts.find((post) => post.to === "U0ADA")!;
    const text = JSON.stringify(dm.body.blocks);
    for (const fact of ["*Workflow*\\nsandbox-escalation", "*Step*\\nwrite_script", `*Guard*\\n${escalation.guardId} (fatal`, runId, escalation.feedback, "Offending lines", "Decide before", "Offered to every reviewer"]) expect(text).toContain(fact);
    // The offending line, marked (">" escaped as Slack's mrkdwn needs), with its neighbours.
    expect(text).toMatch(/&gt;\s+5 \|\s+os\.system\('du -sh ' \+ path\)\\n\s+6 \|/);
    expect(buttonsOf(dm).map((button) => button.action_id)).toEqual([SLACK_ACTION_IDS.approve, SLACK_ACTION_IDS.reject, SLACK_ACTION_IDS.review]);
    expect(buttonsOf(dm)[0]!.value).toBe(`${escalation.id}:${escalation.artifact!.contentHash}`);
    // The channel message cannot know who clicks: a link to the review page only.
    const channel = posts.find((post) => post.kind === "webhook")!;
    expect(buttonsOf(channel)).toEqual([expect.objectContaining({ action_id: SLACK_ACTION_IDS.review, url: `${BASE_URL}/escalations/${escalation.id}` })]);
    expect(slack.refused).toEqual([]);

    // Another pass sends nothing again.
    slack.received.length = 0;
    expect(await queueSlackNotifications(fixture.database.db, config, later())).toBe(0);
    await deliverDueSlackNotifications(fixture.database.db, config, later());
    expect(slack.received).toEqual([]);
  });

  it("an escalation routed to a group: the group's own webhook and its members on Slack; a group using the app's channel; a group with Slack off", async () => {
    const security = await escalatedRun({ group: "security" });
    // Routed: no need to wait for the grace.
    expect(destinations(await sendSlack(security.escalation.id, new Date()))).toEqual(["chat.postMessage U0ADA", "webhook /hooks/T0/B0SECURITY/secret"]);

    const leads = await escalatedRun({ group: "leads" });
    const posts = await sendSlack(leads.escalation.id, new Date());
    expect(destinations(posts)).toEqual(["chat.postMessage C0LEADS", "chat.postMessage U0LEE"]);
    expect(buttonsOf(posts.find((post) => post.to === "C0LEADS")!).map((button) => button.action_id)).toContain(SLACK_ACTION_IDS.reject);
    expect(JSON.stringify(posts[0]!.body.blocks)).toContain("Offered to group leads");

    const quiet = await escalatedRun({ group: "quiet" });
    expect(await sendSlack(quiet.escalation.id, new Date())).toEqual([]);
    expect(await fixture.database.db.notificationDelivery.findMany({ where: { escalationId: quiet.escalation.id, channel: "slack" }, select: { recipient: true, lastError: true } })).toEqual([
      { recipient: "(nobody)", lastError: "not sent: nobody who may decide it is reachable on Slack" },
    ]);
  });

  it("two dispatchers at once queue and send each message once", async () => {
    const { escalation } = await escalatedRun({ group: "security" });
    const now = new Date();
    await Promise.all([queueSlackNotifications(fixture.database.db, config, now), queueSlackNotifications(fixture.database.db, config, now)]);
    await Promise.all([deliverDueSlackNotifications(fixture.database.db, config, now), deliverDueSlackNotifications(fixture.database.db, config, now)]);
    const posts = slack.received.filter((post) => JSON.stringify(post.body).includes(`/escalations/${escalation.id}`));
    expect(destinations(posts)).toEqual(["chat.postMessage U0ADA", "webhook /hooks/T0/B0SECURITY/secret"]);
  });

  it("a policy without Slack sends nothing, and keeps one unsent row so the escalation is not looked at again", async () => {
    const { escalation } = await escalatedRun({ group: "security", policy: { channels: ["email"] } });
    expect(await sendSlack(escalation.id, new Date())).toEqual([]);
    expect(await fixture.database.db.notificationDelivery.findMany({ where: { escalationId: escalation.id, channel: "slack" }, select: { recipient: true, failedAt: true, lastError: true } })).toEqual([
      { recipient: "(nobody)", failedAt: expect.any(Date), lastError: "not sent: the escalation's routing policy leaves Slack out" },
    ]);
  });

  it("a hand-off to another group is told to that group once", async () => {
    const { escalation } = await escalatedRun({ group: "security" });
    await sendSlack(escalation.id, new Date());
    slack.received.length = 0;
    await fixture.database.db.escalation.update({ where: { id: escalation.id }, data: { reviewGroup: "leads", handedOffAt: new Date() } });
    const posts = await sendSlack(escalation.id, new Date());
    expect(destinations(posts)).toEqual(["chat.postMessage C0LEADS", "chat.postMessage U0LEE"]);
    expect(JSON.stringify(posts[0]!.body)).toContain("Handed off");
    slack.received.length = 0;
    expect(await sendSlack(escalation.id, new Date())).toEqual([]);
  });

  it("a backlog of hand-offs already told never keeps a new hand-off from being told", async () => {
    const db = fixture.database.db;
    const now = new Date();
    // More than a batch of told hand-offs on either side of the untold one in hand-off time, so
    // neither reading order finds it by luck.
    const told = Array.from({ length: 102 }, (_, index) => ({ id: randomUUID(), handedOffAt: new Date(now.getTime() - HOUR_MS + (index < 51 ? -index - 1 : index) * 1_000) }));
    const untold = { id: randomUUID(), handedOffAt: new Date(now.getTime() - HOUR_MS) };
    const all = [...told, untold];
    await db.run.createMany({ data: all.map(({ id }) => ({ id, workflowVersionId: fixture.versions["sandbox-escalation"]!, specification: "hand-off backlog", status: "suspended" as const, epoch: 1, workflowState: {} })) });
    await db.escalation.createMany({
      data: all.map(({ id, handedOffAt }) => ({ id, runId: id, stepName: "write_script", guardId: "g", feedback: "fatal", routedAt: now, reviewGroup: "leads", policy: { ...ROUTED, group: "leads" }, handedOffAt, createdAt: handedOffAt })),
    });
    // Every one was announced when it arrived; all but one were told of their hand-off too.
    const unsent = (escalationId: string, event: string) => ({ id: randomUUID(), escalationId, recipient: "(nobody)", channel: "slack", event, nextAttemptAt: now, failedAt: now, lastError: "not sent: test" });
    await db.notificationDelivery.createMany({ data: [...all.map(({ id }) => unsent(id, "created")), ...told.map(({ id }) => unsent(id, "handoff:leads"))] });

    await queueSlackNotifications(db, config, now);
    const rows = await db.notificationDelivery.findMany({ where: { escalationId: untold.id, channel: "slack", event: "handoff:leads" }, select: { recipient: true } });
    expect(rows.map((row) => row.recipient).sort()).toEqual(["group:leads", "lee@example.test"]);
  });

  it("reminds before the deadline, on Slack too", async () => {
    const { escalation } = await escalatedRun({ group: "security" });
    await sendSlack(escalation.id, new Date());
    slack.received.length = 0;
    const withReminders = { ...config, reminderHours: [0.5] };
    const expiresAt = escalation.expiresAt!;
    const nearDeadline = new Date(expiresAt.getTime() - 10 * 60_000);
    await queueSlackNotifications(fixture.database.db, withReminders, nearDeadline);
    await deliverDueSlackNotifications(fixture.database.db, withReminders, nearDeadline);
    const posts = slack.received.filter((post) => JSON.stringify(post.body).includes(escalation.id));
    expect(destinations(posts)).toEqual(["chat.postMessage U0ADA", "webhook /hooks/T0/B0SECURITY/secret"]);
    expect(String(posts[0]!.body.text)).toContain("Reminder, 0.5 h left");
  });

  it("a wrong bot token is refused by Slack: retried with the reason, given up after the last attempt; a message for an escalation decided meanwhile is not sent", async () => {
    const { escalation } = await escalatedRun({ group: "leads" });
    const wrong = { ...config, client: createSlackClient({ apiUrl: slack.apiUrl, botToken: "xoxb-wrong" }), maxAttempts: 2 };
    const now = new Date();
    await queueSlackNotifications(fixture.database.db, wrong, now);
    await deliverDueSlackNotifications(fixture.database.db, wrong, now);
    const row = await fixture.database.db.notificationDelivery.findFirstOrThrow({ where: { escalationId: escalation.id, recipient: "group:leads" } });
    expect(row).toMatchObject({ attempts: 1, deliveredAt: null, failedAt: null, lastError: "Slack refused chat.postMessage: invalid_auth" });
    expect(slack.refused).toContain("chat.postMessage with Bearer xoxb-wrong");
    await deliverDueSlackNotifications(fixture.database.db, wrong, new Date(now.getTime() + 120_000));
    expect(await fixture.database.db.notificationDelivery.findFirstOrThrow({ where: { id: row.id } })).toMatchObject({ attempts: 2, failedAt: expect.any(Date), lastError: "Slack refused chat.postMessage: invalid_auth" });

    const second = await escalatedRun({ group: "leads" });
    await queueSlackNotifications(fixture.database.db, config, new Date());
    await fixture.database.db.escalation.update({ where: { id: second.escalation.id }, data: { status: "cancelled" } });
    expect(await sendSlack(second.escalation.id, new Date())).toEqual([]);
    expect(await fixture.database.db.notificationDelivery.findFirstOrThrow({ where: { escalationId: second.escalation.id, recipient: "group:leads" } })).toMatchObject({ lastError: "not sent: the escalation is cancelled" });
  });

  it("Reject clicked by a reviewer of the group rejects as that reviewer and replaces the message; the same signed request again is refused", async () => {
    const { runId, escalation } = await escalatedRun({ group: "leads" });
    const value = `${escalation.id}:${escalation.artifact!.contentHash}`;
    const clicked = await clickSlack(interactions.url, { userId: "U0LEE", actionId: SLACK_ACTION_IDS.reject, value, responseUrl: slack.responseUrl("r1") });
    expect(clicked.status).toBe(200);
    expect(await fixture.database.db.escalation.findUniqueOrThrow({ where: { id: escalation.id } })).toMatchObject({ status: "rejected", decidedBy: "lee@example.test", decision: "reject" });
    const answer = slack.received.find((post) => post.to === "/respond/r1")!;
    expect(answer.body).toMatchObject({ replace_original: true, text: expect.stringContaining("Rejected by lee@example.test from Slack") });
    expect((await runEnded(runId)).status).toBe("failed");

    const replayed = await resendSlack(interactions.url, clicked.request);
    expect(replayed).toEqual({ status: 409, text: "Refused: this signed request was already received." });
    expect(slack.received.filter((post) => post.to === "/respond/r1")).toHaveLength(1);
  });

  it("answers Slack's request before posting the answer to the response_url: a slow Slack cannot make a decision that stands look failed", async () => {
    const { escalation } = await escalatedRun({ group: "leads" });
    heldAnswers = [];
    try {
      const clicked = await slack.click(interactions.url, { userId: "U0LEE", actionId: SLACK_ACTION_IDS.reject, value: `${escalation.id}:${escalation.artifact!.contentHash}`, responseUrl: slack.responseUrl("later-1") });
      expect(clicked.status).toBe(200);
      expect(await fixture.database.db.escalation.findUniqueOrThrow({ where: { id: escalation.id } })).toMatchObject({ status: "rejected", decidedBy: "lee@example.test" });
      expect(slack.received.filter((post) => post.to === "/respond/later-1")).toEqual([]);
      expect(heldAnswers).toHaveLength(1);
      await heldAnswers[0]!();
      expect(slack.received.find((post) => post.to === "/respond/later-1")!.body).toMatchObject({ replace_original: true, text: expect.stringContaining("Rejected by lee@example.test from Slack") });
    } finally {
      heldAnswers = null;
    }
  });

  it("a decision from Slack stands when Slack does not take the answer", async () => {
    const { escalation } = await escalatedRun({ group: "leads" });
    const clicked = await clickSlack(interactions.url, { userId: "U0LEE", actionId: SLACK_ACTION_IDS.reject, value: `${escalation.id}:${escalation.artifact!.contentHash}`, responseUrl: slack.responseUrl("broken-1") });
    expect(clicked.status).toBe(200);
    expect(await fixture.database.db.escalation.findUniqueOrThrow({ where: { id: escalation.id } })).toMatchObject({ status: "rejected", decidedBy: "lee@example.test" });
  });

  it("Approve clicked never approves: it answers that reviewer alone with their own confirmation page, which shows the code and approves once confirmed", async () => {
    const { runId, escalation } = await escalatedRun({ group: "security" });
    const value = `${escalation.id}:${escalation.artifact!.contentHash}`;
    expect((await clickSlack(interactions.url, { userId: "U0ADA", actionId: SLACK_ACTION_IDS.approve, value, responseUrl: slack.responseUrl("a1") })).status).toBe(200);
    expect((await fixture.database.db.escalation.findUniqueOrThrow({ where: { id: escalation.id } })).status).toBe("pending");
    const answer = slack.received.find((post) => post.to === "/respond/a1")!;
    expect(answer.body).toMatchObject({ response_type: "ephemeral", replace_original: false });
    const token = new RegExp(`<${BASE_URL}/decide/([^|>]+)\\|`).exec(String(answer.body.text))?.[1];
    expect(token).toBeDefined();
    const opened = await openDecisionLink(fixture.database.db, AUTH_SECRET, token!);
    expect(opened).toMatchObject({ ok: true, decision: "approve", recipient: "ada@example.test", escalation: { id: escalation.id, content: SHELL_SCRIPT, fatal: true } });
    expect(await decideByLink(fixture.database.db, AUTH_SECRET, { token: token!, contentHash: escalation.artifact!.contentHash })).toMatchObject({ ok: true, outcome: { status: "approved", decidedBy: "ada@example.test" } });
    expect((await runEnded(runId)).status).toBe("succeeded");

    // Now decided: a later click says so.
    await clickSlack(interactions.url, { userId: "U0ADA", actionId: SLACK_ACTION_IDS.reject, value, responseUrl: slack.responseUrl("a2") });
    expect(slack.received.find((post) => post.to === "/respond/a2")!.body).toMatchObject({ response_type: "ephemeral", text: expect.stringContaining("ada@example.test") });
  });

  it("Approve's confirmation page, once the escalation was handed to a group its reviewer is not in, refuses with the reason before showing the code or taking the link", async () => {
    const { escalation } = await escalatedRun({ group: "security" });
    const value = `${escalation.id}:${escalation.artifact!.contentHash}`;
    await clickSlack(interactions.url, { userId: "U0ADA", actionId: SLACK_ACTION_IDS.approve, value, responseUrl: slack.responseUrl("handed-1") });
    const token = new RegExp(`<${BASE_URL}/decide/([^|>]+)\\|`).exec(String(slack.received.find((post) => post.to === "/respond/handed-1")!.body.text))?.[1];
    expect(token).toBeDefined();
    await fixture.database.db.escalation.update({ where: { id: escalation.id }, data: { reviewGroup: "leads", handedOffAt: new Date() } });
    const refusal = { ok: false, escalationId: escalation.id, reason: `Escalation ${escalation.id}: it is offered to the group leads, and you are not in it (an admin may decide it, or add you to the group).` };
    expect(await openDecisionLink(fixture.database.db, AUTH_SECRET, token!)).toEqual(refusal);
    expect(await decideByLink(fixture.database.db, AUTH_SECRET, { token: token!, contentHash: escalation.artifact!.contentHash })).toEqual(refusal);
    expect(await fixture.database.db.decisionLink.findFirstOrThrow({ where: { escalationId: escalation.id } })).toMatchObject({ usedAt: null });
    expect((await fixture.database.db.escalation.findUniqueOrThrow({ where: { id: escalation.id } })).status).toBe("pending");
  });

  it.each([
    ["an unknown Slack member", "U0NOBODY", "not linked to a Dualstate reviewer"],
    ["a viewer", "U0VIC", "The Dualstate account linked to your Slack member id is a viewer, and viewers cannot decide escalations"],
    ["a disabled reviewer", "U0GONE", "The Dualstate account linked to your Slack member id is disabled"],
    ["a reviewer outside the group", "U0LEE", "offered to the group security, and lee@example.test is not in it"],
  ])("a click by %s decides nothing and is answered to them alone", async (_who, userId, reason) => {
    const { escalation } = await escalatedRun({ group: "security" });
    const responseUrl = slack.responseUrl(`x-${userId}`);
    const clicked = await clickSlack(interactions.url, { userId, actionId: SLACK_ACTION_IDS.reject, value: `${escalation.id}:${escalation.artifact!.contentHash}`, responseUrl });
    expect(clicked.status).toBe(200);
    expect(slack.received.find((post) => post.to === `/respond/x-${userId}`)!.body).toMatchObject({ response_type: "ephemeral", text: expect.stringContaining(reason) });
    expect((await fixture.database.db.escalation.findUniqueOrThrow({ where: { id: escalation.id } })).status).toBe("pending");
    expect(await fixture.database.db.decisionLink.count({ where: { escalationId: escalation.id } })).toBe(0);
  });

  it("an admin outside the escalation's group may decide it from Slack, as in the review queue (group-rule.ts)", async () => {
    const { escalation } = await escalatedRun({ group: "security" });
    // bob is an admin, and in leads only.
    const clicked = await clickSlack(interactions.url, { userId: "U0BOB", actionId: SLACK_ACTION_IDS.reject, value: `${escalation.id}:${escalation.artifact!.contentHash}`, responseUrl: slack.responseUrl("admin-1") });
    expect(clicked.status).toBe(200);
    expect(slack.received.find((post) => post.to === "/respond/admin-1")!.body).toMatchObject({ replace_original: true, text: expect.stringContaining("Rejected by bob@example.test from Slack") });
    expect(await fixture.database.db.escalation.findUniqueOrThrow({ where: { id: escalation.id } })).toMatchObject({ status: "rejected", decidedBy: "bob@example.test" });
  });

  it("refuses forged, tampered, stale and unsigned clicks before reading them; a stale artifact hash decides nothing", async () => {
    const { escalation } = await escalatedRun({ group: "security" });
    const click = { userId: "U0ADA", actionId: SLACK_ACTION_IDS.reject, value: `${escalation.id}:${escalation.artifact!.contentHash}`, responseUrl: slack.responseUrl("f") };
    expect(await clickSlack(interactions.url, click, { secret: "not-the-signing-secret" })).toMatchObject({ status: 401, text: "Refused: X-Slack-Signature does not match." });
    expect(await clickSlack(interactions.url, click, { tamper: (body) => body.replace("U0ADA", "U0BOB") })).toMatchObject({ status: 401, text: "Refused: X-Slack-Signature does not match." });
    expect(await clickSlack(interactions.url, click, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 })).toMatchObject({ status: 401, text: expect.stringContaining("more than five minutes") });
    expect(await clickSlack(interactions.url, click, { timestamp: Math.floor(Date.now() / 1000) + 6 * 60 })).toMatchObject({ status: 401 });
    const unsigned = await fetch(interactions.url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "payload=%7B%7D" });
    expect(unsigned.status).toBe(401);
    const huge = await fetch(interactions.url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "payload=" + "x".repeat(70_000) });
    expect(huge.status).toBe(413);
    expect(slack.received).toEqual([]);

    await clickSlack(interactions.url, { ...click, value: `${escalation.id}:${"0".repeat(64)}`, responseUrl: slack.responseUrl("stale") });
    expect(slack.received.find((post) => post.to === "/respond/stale")!.body).toMatchObject({ text: expect.stringContaining("artifact changed") });
    expect((await fixture.database.db.escalation.findUniqueOrThrow({ where: { id: escalation.id } })).status).toBe("pending");
  });

  it("never posts an answer to a response_url outside Slack and the configured API", async () => {
    const { escalation } = await escalatedRun({ group: "security" });
    const elsewhere = await serveRouteHandler(async () => {
      throw new Error("must not be called");
    });
    try {
      const clicked = await clickSlack(interactions.url, { userId: "U0ADA", actionId: SLACK_ACTION_IDS.approve, value: `${escalation.id}:${escalation.artifact!.contentHash}`, responseUrl: elsewhere.url.replace("127.0.0.1", "localhost") });
      expect(clicked.status).toBe(200);
      expect(slack.received).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it("a person sets their own Slack member id and direct messages on their account; no direct message goes to it until they prove it is theirs", async () => {
    const db = fixture.database.db;
    const cy = { id: "u-cy", email: "cy@example.test", role: "reviewer" as const, via: "session" as const };
    expect(await slackNotificationsOf(db, cy, APP)).toEqual({ enabled: false, slackUserId: null, pendingSlackUserId: null, codeExpiresAt: null, verificationAvailable: true });
    await expect(setSlackNotifications(db, cy, { enabled: true, slackUserId: "" }, APP)).rejects.toThrow("slackUserId: is needed for Slack direct messages");
    await expect(setSlackNotifications(db, cy, { enabled: false, slackUserId: "<@U0CY>" }, APP)).rejects.toThrow("slackUserId: must be a Slack member id");
    expect(await setSlackNotifications(db, cy, { enabled: true, slackUserId: " u0cy " }, APP)).toMatchObject({ enabled: true, slackUserId: null, pendingSlackUserId: "U0CY" });
    try {
      // Not verified yet: cy, a member of security, gets no direct message.
      const first = await escalatedRun({ group: "security" });
      expect(destinations(await sendSlack(first.escalation.id, new Date()))).toEqual(["chat.postMessage U0ADA", "webhook /hooks/T0/B0SECURITY/secret"]);

      await sendSlackVerificationCode(db, cy, { client: config.client, authSecret: AUTH_SECRET });
      const code = /code: (\S+)$/.exec(String(slack.received.find((post) => post.to === "U0CY")!.body.text))![1]!;
      await confirmSlackVerificationCode(db, cy, { authSecret: AUTH_SECRET, code });
      const second = await escalatedRun({ group: "security" });
      expect(destinations(await sendSlack(second.escalation.id, new Date()))).toEqual(["chat.postMessage U0ADA", "chat.postMessage U0CY", "webhook /hooks/T0/B0SECURITY/secret"]);
    } finally {
      expect(await setSlackNotifications(db, cy, { enabled: false, slackUserId: "" }, APP)).toMatchObject({ enabled: false, slackUserId: null, pendingSlackUserId: null });
    }
  });

  it("someone who enters another person's member id first gets none of their clicks and none of their messages, and does not keep the owner out", async () => {
    const db = fixture.database.db;
    // eve, a reviewer of security, enters the member id of a colleague who has not linked Slack yet.
    await db.user.create({ data: { id: "u-eve", name: "eve", email: "eve@example.test", role: "reviewer", groups: { create: [{ groupId: "g-sec" }] } } });
    await db.user.create({ data: { id: "u-owner", name: "owner", email: "owner@example.test", role: "reviewer", groups: { create: [{ groupId: "g-sec" }] } } });
    const eve = { id: "u-eve", email: "eve@example.test", role: "reviewer" as const, via: "session" as const };
    const owner = { id: "u-owner", email: "owner@example.test", role: "reviewer" as const, via: "session" as const };
    try {
      await setSlackNotifications(db, eve, { enabled: true, slackUserId: "U0OWNER" }, APP);
      const { escalation } = await escalatedRun({ group: "security" });
      // No direct message to the claimed id.
      expect(destinations(await sendSlack(escalation.id, new Date()))).toEqual(["chat.postMessage U0ADA", "webhook /hooks/T0/B0SECURITY/secret"]);

      // The owner clicks Reject (say, on a message forwarded to them): before verification this decided as eve.
      const value = `${escalation.id}:${escalation.artifact!.contentHash}`;
      expect((await clickSlack(interactions.url, { userId: "U0OWNER", actionId: SLACK_ACTION_IDS.reject, value, responseUrl: slack.responseUrl("claimed-1") })).status).toBe(200);
      expect(slack.received.find((post) => post.to === "/respond/claimed-1")!.body).toMatchObject({ response_type: "ephemeral", text: expect.stringContaining("Your Slack account is not verified in Dualstate, so this click decides nothing: confirm it on your Dualstate Account page") });
      expect(await db.escalation.findUniqueOrThrow({ where: { id: escalation.id } })).toMatchObject({ status: "pending", decidedBy: null });

      // The owner enters their id too (not refused), proves it, and it is theirs: eve's claim is gone.
      await setSlackNotifications(db, owner, { enabled: true, slackUserId: "U0OWNER" }, APP);
      await sendSlackVerificationCode(db, owner, { client: config.client, authSecret: AUTH_SECRET });
      const code = /code: (\S+)$/.exec(String(slack.received.filter((post) => post.to === "U0OWNER").at(-1)!.body.text))![1]!;
      await confirmSlackVerificationCode(db, owner, { authSecret: AUTH_SECRET, code });
      expect(await slackNotificationsOf(db, eve, APP)).toMatchObject({ slackUserId: null, pendingSlackUserId: null });
      await clickSlack(interactions.url, { userId: "U0OWNER", actionId: SLACK_ACTION_IDS.reject, value, responseUrl: slack.responseUrl("claimed-2") });
      expect(await db.escalation.findUniqueOrThrow({ where: { id: escalation.id } })).toMatchObject({ status: "rejected", decidedBy: "owner@example.test" });
    } finally {
      await db.user.deleteMany({ where: { id: { in: ["u-eve", "u-owner"] } } });
    }
  });
});
