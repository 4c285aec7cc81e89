import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "@/server/api/trpc";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/server/persistence/testing/test-database";
import { DEFAULT_ESCALATION_POLICY } from "@/server/review-policy/escalation-policy";
import { listEscalations } from "../escalations/list-escalations";
import { CREATED_EVENT } from "@/server/notifications/reminder-event";
import { NOBODY, queueEscalationEmails } from "../notifications/queue-escalation-emails";
import { UNROUTED_GRACE_MS } from "../notifications/escalations-ready-to-notify";
import { queueReminders } from "../notifications/queue-reminders";
import { addGroupMember } from "../reviewer-groups/add-group-member";
import { GROUP_LIMITS } from "../reviewer-groups/group-limits";
import { createReviewerGroup } from "../reviewer-groups/create-reviewer-group";
import { deleteReviewerGroup } from "../reviewer-groups/delete-reviewer-group";
import { listReviewerGroups } from "../reviewer-groups/list-reviewer-groups";
import { renameReviewerGroup } from "../reviewer-groups/rename-reviewer-group";
import { setGroupChannels } from "../reviewer-groups/set-group-channels";
import { dryRunRouting } from "./dry-run-routing";
import { routeNewEscalations } from "./route-new-escalations";
import { saveRoutingVersion } from "./save-routing-version";

const HOUR = 3_600_000;
const ADMIN: Actor = { id: "u-admin", email: "admin@example.test", role: "admin", via: "session" };

const DEFINITION = {
  steps: [
    { name: "implement", type: "action_pair", guards: [{ kind: "syntax" }, { kind: "security" }] },
    { name: "docs", type: "action_pair", guards: [{ kind: "llm_judge" }] },
  ],
};

const ROUTING = `rules:
  - name: security in payments
    match: { workflow: payments, guard: security, feedback: "(?i)sql" }
    group: security
    quorum: { approvals: 2, exclude_run_starter: true }
    deadline: { hours: 8, on_deadline: handoff, handoff_group: leads, handoff_hours: 4 }
    channels: [email]
  - name: quiet docs
    match: { step: docs }
    channels: []
default:
  group: null
`;

describe.each(TEST_PROVIDERS)("the routing pass on %s", (provider) => {
  let database: TestDatabase;
  let groupIds: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    const { db } = database;
    for (const user of [
      { id: "u-admin", email: "admin@example.test", role: "admin" },
      { id: "u-sec", email: "sec@example.test", role: "reviewer" },
      { id: "u-lead", email: "lead@example.test", role: "reviewer" },
      { id: "u-view", email: "view@example.test", role: "viewer" },
    ] as const) {
      await db.user.create({ data: { ...user, name: user.email } });
    }
    await db.workflow.create({ data: { id: "wf-pay", name: "payments", versions: { create: [{ id: "pay1", version: 1, definition: DEFINITION }] } } });
    await db.workflow.create({ data: { id: "wf-blog", name: "blog", versions: { create: [{ id: "blog1", version: 1, definition: DEFINITION }] } } });
    groupIds = {};
    for (const name of ["security", "leads"]) groupIds[name] = (await createReviewerGroup(db, { name }, ADMIN)).id;
    await addGroupMember(db, { groupId: groupIds.security!, email: "sec@example.test" }, ADMIN);
    await addGroupMember(db, { groupId: groupIds.leads!, email: "lead@example.test" }, ADMIN);
  });
  afterAll(async () => {
    await database.dispose();
  });
  beforeEach(async () => {
    // Every test starts with no escalations, no routing version and no notifications.
    await database.db.notificationDelivery.deleteMany();
    await database.db.escalation.deleteMany();
    await database.db.run.deleteMany();
    await database.db.routingVersion.deleteMany();
  });

  async function escalation(options: { version?: string; step?: string; feedback?: string; runStatus?: "suspended" | "running"; status?: "pending" | "approved"; createdAt?: Date } = {}) {
    const { db } = database;
    const createdAt = options.createdAt ?? new Date();
    const expiresAt = new Date(createdAt.getTime() + 72 * HOUR);
    const runId = randomUUID();
    await db.run.create({ data: { id: runId, workflowVersionId: options.version ?? "pay1", specification: "s", workflowState: {}, status: options.runStatus ?? "suspended", resumeDeadline: expiresAt } });
    const id = randomUUID();
    await db.escalation.create({ data: { id, runId, stepName: options.step ?? "implement", guardId: "g", feedback: options.feedback ?? "Security: SQL built from input", status: options.status ?? "pending", createdAt, expiresAt } });
    return { id, runId, createdAt, expiresAt };
  }

  const row = (id: string) => database.db.escalation.findUniqueOrThrow({ where: { id }, include: { run: { select: { resumeDeadline: true } } } });

  it("without a routing document, routes once with the default policy and leaves the deadline alone", async () => {
    const { id, expiresAt } = await escalation();
    expect(await routeNewEscalations(database.db)).toBe(1);
    const routed = await row(id);
    expect(routed.routedAt).not.toBeNull();
    expect(routed.routingVersion).toBeNull();
    expect(routed.reviewGroup).toBeNull();
    expect(routed.policy).toEqual(JSON.parse(JSON.stringify(DEFAULT_ESCALATION_POLICY)));
    expect(routed.expiresAt?.getTime()).toBe(expiresAt.getTime());
    expect(await routeNewEscalations(database.db)).toBe(0);
  });

  it("routes by the document in force: group, policy, version, and both deadlines moved", async () => {
    const { version } = await saveRoutingVersion(database.db, { source: ROUTING, comment: "first" }, ADMIN);
    const matched = await escalation();
    const otherWorkflow = await escalation({ version: "blog1" });
    const running = await escalation({ runStatus: "running" });
    const decided = await escalation({ status: "approved" });
    expect(await routeNewEscalations(database.db)).toBe(3);

    const routed = await row(matched.id);
    expect(routed).toMatchObject({ routingVersion: version, reviewGroup: "security" });
    expect(routed.policy).toMatchObject({ rule: "security in payments", quorum: { approvals: 2, excludeRunStarter: true, rejections: 1 }, deadline: { hours: 8, action: "handoff", handoffGroup: "leads", handoffHours: 4 } });
    expect(routed.expiresAt?.getTime()).toBe(matched.createdAt.getTime() + 8 * HOUR);
    expect(routed.run.resumeDeadline?.getTime()).toBe(matched.createdAt.getTime() + 8 * HOUR);

    const fallThrough = await row(otherWorkflow.id);
    expect(fallThrough).toMatchObject({ reviewGroup: null, policy: expect.objectContaining({ rule: "default" }) });
    expect(fallThrough.expiresAt?.getTime()).toBe(otherWorkflow.expiresAt.getTime());

    // Its run is not waiting on it: the escalation's deadline moves, the run's does not.
    const notSuspended = await row(running.id);
    expect(notSuspended.expiresAt?.getTime()).toBe(running.createdAt.getTime() + 8 * HOUR);
    expect(notSuspended.run.resumeDeadline?.getTime()).toBe(running.expiresAt.getTime());

    expect((await row(decided.id)).routedAt).toBeNull();
  });

  it("a budget escalation keeps the built-in policy, whatever the rules say", async () => {
    await saveRoutingVersion(database.db, { source: ROUTING }, ADMIN);
    const budget = await escalation();
    await database.db.escalation.update({ where: { id: budget.id }, data: { kind: "budget" } });
    await routeNewEscalations(database.db);
    const routed = await row(budget.id);
    expect(routed).toMatchObject({ reviewGroup: null, routingVersion: null, policy: expect.objectContaining({ rule: null }) });
    expect(routed.expiresAt?.getTime()).toBe(budget.expiresAt.getTime());
    const dry = await dryRunRouting(database.db, ROUTING, 1);
    expect(dry.ok && dry.rows[0]).toMatchObject({ escalationId: budget.id, draft: { rule: null, group: null }, changed: false });
  });

  it("keeps an escalation's policy when a newer version is saved", async () => {
    await saveRoutingVersion(database.db, { source: ROUTING }, ADMIN);
    const first = await escalation();
    await routeNewEscalations(database.db);
    const { version } = await saveRoutingVersion(database.db, { source: "default: { group: leads }\n" }, ADMIN);
    const second = await escalation();
    await routeNewEscalations(database.db);
    expect((await row(first.id)).reviewGroup).toBe("security");
    expect(await row(second.id)).toMatchObject({ reviewGroup: "leads", routingVersion: version });
  });

  it("routes each escalation exactly once with several passes at once", async () => {
    await saveRoutingVersion(database.db, { source: ROUTING }, ADMIN);
    const ids = [];
    for (let index = 0; index < 12; index++) ids.push((await escalation({ feedback: index % 2 === 0 ? "sql" : "eval" })).id);
    const counts = await Promise.all([1, 2, 3, 4].map(() => routeNewEscalations(database.db)));
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(12);
    const rows = await database.db.escalation.findMany({ where: { id: { in: ids } }, orderBy: { createdAt: "asc" } });
    expect(rows.every((entry) => entry.routedAt !== null)).toBe(true);
    expect(rows.filter((entry) => entry.reviewGroup === "security")).toHaveLength(6);
  });

  it("saves at once: each is kept as its own version or refused as a conflict to reload, never lost", async () => {
    const saves = await Promise.allSettled(Array.from({ length: 8 }, (_, index) => saveRoutingVersion(database.db, { source: ROUTING, comment: `save ${index}` }, ADMIN)));
    const saved = saves.flatMap((save) => (save.status === "fulfilled" ? [save.value.version] : []));
    for (const save of saves) if (save.status === "rejected") expect(save.reason).toMatchObject({ code: "CONFLICT", message: expect.stringContaining("reload") });
    expect(saved.length).toBeGreaterThan(0);
    const stored = await database.db.routingVersion.findMany({ orderBy: { version: "asc" }, select: { version: true, comment: true } });
    expect(stored.map((row) => row.version)).toEqual([...saved].sort((a, b) => a - b));
    expect(new Set(stored.map((row) => row.comment)).size).toBe(stored.length);
  });

  it("refuses to save an invalid document, naming the line", async () => {
    await expect(saveRoutingVersion(database.db, { source: "rules:\n  - name: a\n    group: ghosts\n" }, ADMIN)).rejects.toThrow(/rules\[0\]\.group \(line 3, column 12\): "ghosts" is not a reviewer group/);
    expect(await database.db.routingVersion.count()).toBe(0);
  });

  it("dry run: where the last escalations went and where the draft sends them", async () => {
    const old = await escalation({ createdAt: new Date(Date.now() - 5_000) });
    await routeNewEscalations(database.db);
    const recent = await escalation({ step: "docs", feedback: "judge says no" });
    const result = await dryRunRouting(database.db, ROUTING, 10);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.rows.map((entry) => entry.escalationId)).toEqual([recent.id, old.id]);
    expect(result.rows[0]).toMatchObject({ went: null, draft: { rule: "quiet docs", channels: [] }, changed: true });
    expect(result.rows[1]).toMatchObject({ went: { rule: null, group: null }, draft: { rule: "security in payments", group: "security" }, changed: true });
    // The dry run routes nothing.
    expect((await row(recent.id)).routedAt).toBeNull();
    const same = await dryRunRouting(database.db, "", 10);
    expect(same.ok && same.rows.map((entry) => entry.changed)).toEqual([false, false]);
    const broken = await dryRunRouting(database.db, "default: { channels: [fax] }\n");
    expect(broken).toEqual({ ok: false, problems: [expect.objectContaining({ path: "default.channels[0]", line: 1 })] });
  });

  it("groups named by the routing document in force cannot be renamed or deleted; a group with pending escalations cannot be deleted", async () => {
    await saveRoutingVersion(database.db, { source: ROUTING }, ADMIN);
    await expect(renameReviewerGroup(database.db, { groupId: groupIds.leads!, name: "heads" }, ADMIN)).rejects.toThrow(/routing document in force \(version \d+\) sends escalations to "leads"/);
    await expect(deleteReviewerGroup(database.db, groupIds.security!, ADMIN)).rejects.toThrow(/sends escalations to "security"/);
    await saveRoutingVersion(database.db, { source: "" }, ADMIN);
    const spare = await createReviewerGroup(database.db, { name: "spare" }, ADMIN);
    const offered = await escalation();
    await database.db.escalation.update({ where: { id: offered.id }, data: { reviewGroup: "spare", routedAt: new Date() } });
    await expect(deleteReviewerGroup(database.db, spare.id, ADMIN)).rejects.toThrow(/1 pending escalation\(s\) are offered to "spare"/);
    // Renaming carries the pending escalations along.
    await renameReviewerGroup(database.db, { groupId: spare.id, name: "spare-2" }, ADMIN);
    expect((await row(offered.id)).reviewGroup).toBe("spare-2");
    await database.db.escalation.update({ where: { id: offered.id }, data: { status: "approved" } });
    await deleteReviewerGroup(database.db, spare.id, ADMIN);
    expect((await listReviewerGroups(database.db)).map((group) => group.name)).toEqual(["leads", "security"]);
  });

  it("a group a pending escalation's policy would hand it to cannot be renamed or deleted, though the document in force no longer names it", async () => {
    await saveRoutingVersion(database.db, { source: ROUTING }, ADMIN);
    const routed = await escalation();
    await routeNewEscalations(database.db);
    expect((await row(routed.id)).policy).toMatchObject({ deadline: { handoffGroup: "leads" } });
    await saveRoutingVersion(database.db, { source: "" }, ADMIN);
    await expect(deleteReviewerGroup(database.db, groupIds.leads!, ADMIN)).rejects.toThrow(/1 pending escalation\(s\) would be handed to "leads"/);
    await expect(renameReviewerGroup(database.db, { groupId: groupIds.leads!, name: "heads" }, ADMIN)).rejects.toThrow(/1 pending escalation\(s\) would be handed to "leads"/);
    await database.db.escalation.update({ where: { id: routed.id }, data: { status: "approved" } });
    await renameReviewerGroup(database.db, { groupId: groupIds.leads!, name: "heads" }, ADMIN);
    await renameReviewerGroup(database.db, { groupId: groupIds.leads!, name: "leads" }, ADMIN);
  });

  it("bounds how many groups there are and how many members one has, naming the field", async () => {
    const { db } = database;
    const crowd = await createReviewerGroup(db, { name: "crowd" }, ADMIN);
    const users = Array.from({ length: GROUP_LIMITS.maxMembers + 1 }, (_, index) => ({ id: `u-crowd-${index}`, email: `crowd${index}@example.test`, name: `crowd${index}`, role: "reviewer" as const }));
    await db.user.createMany({ data: users });
    await db.reviewerGroupMember.createMany({ data: users.slice(0, GROUP_LIMITS.maxMembers).map((user) => ({ groupId: crowd.id, userId: user.id })) });
    await expect(addGroupMember(db, { groupId: crowd.id, email: users.at(-1)!.email }, ADMIN)).rejects.toThrow(`email: the group crowd has ${GROUP_LIMITS.maxMembers} members; the limit is ${GROUP_LIMITS.maxMembers}`);
    await deleteReviewerGroup(db, crowd.id, ADMIN);
    await db.user.deleteMany({ where: { id: { startsWith: "u-crowd-" } } });

    const existing = await db.reviewerGroup.count();
    await db.reviewerGroup.createMany({ data: Array.from({ length: GROUP_LIMITS.maxGroups - existing }, (_, index) => ({ id: `g-filler-${index}`, name: `filler-${index}` })) });
    await expect(createReviewerGroup(db, { name: "one-too-many" }, ADMIN)).rejects.toThrow(`name: there are ${GROUP_LIMITS.maxGroups} reviewer groups; the limit is ${GROUP_LIMITS.maxGroups}`);
    await db.reviewerGroup.deleteMany({ where: { name: { startsWith: "filler-" } } });
  });

  it("refuses bad group names, duplicates, and viewers as members; keeps the webhook URL secret", async () => {
    await expect(createReviewerGroup(database.db, { name: "two words" }, ADMIN)).rejects.toThrow(/name: "two words" is not a group name/);
    await expect(createReviewerGroup(database.db, { name: "security" }, ADMIN)).rejects.toThrow(/already exists/);
    await expect(addGroupMember(database.db, { groupId: groupIds.security!, email: "view@example.test" }, ADMIN)).rejects.toThrow(/viewer, who cannot decide/);
    await expect(addGroupMember(database.db, { groupId: groupIds.security!, email: "sec@example.test" }, ADMIN)).rejects.toThrow(/already a member/);
    await expect(setGroupChannels(database.db, { groupId: groupIds.security!, slackWebhookUrl: "http://hooks.example.test/x" }, ADMIN)).rejects.toThrow(/slackWebhookUrl: must be an https:\/\/ URL/);
    await setGroupChannels(database.db, { groupId: groupIds.security!, notifySlack: true, slackWebhookUrl: "https://hooks.slack.com/services/T000/B000/secretXYZW" }, ADMIN);
    const listed = (await listReviewerGroups(database.db)).find((group) => group.name === "security")!;
    expect(listed).toMatchObject({ notifySlack: true, slackWebhookHint: "hooks.slack.com/…XYZW" });
    expect(JSON.stringify(listed)).not.toContain("secret");
    const audit = await database.db.auditEvent.findMany({ where: { action: "reviewer_group.updated" } });
    expect(JSON.stringify(audit)).not.toContain("secret");
    await setGroupChannels(database.db, { groupId: groupIds.security!, notifySlack: false, slackWebhookUrl: null }, ADMIN);
  });

  it("emails wait for routing, then go to the routed group only; unrouted ones go to everyone after the grace", async () => {
    await saveRoutingVersion(database.db, { source: ROUTING }, ADMIN);
    const routedLater = await escalation();
    const stale = await escalation({ createdAt: new Date(Date.now() - UNROUTED_GRACE_MS - 5_000), version: "blog1" });
    const quiet = await escalation({ step: "docs" });
    expect(await queueEscalationEmails(database.db)).toBe(3); // the stale one, to admin, lead and sec
    const recipients = async (id: string) => (await database.db.notificationDelivery.findMany({ where: { escalationId: id, event: CREATED_EVENT }, orderBy: { recipient: "asc" } })).map((entry) => entry.recipient);
    expect(await recipients(routedLater.id)).toEqual([]);
    expect(await recipients(stale.id)).toEqual(["admin@example.test", "lead@example.test", "sec@example.test"]);

    await routeNewEscalations(database.db);
    await queueEscalationEmails(database.db);
    expect(await recipients(routedLater.id)).toEqual(["sec@example.test"]);
    // A policy without email: one row says why, and the escalation is not looked at again.
    const marker = await database.db.notificationDelivery.findMany({ where: { escalationId: quiet.id } });
    expect(marker).toEqual([expect.objectContaining({ recipient: NOBODY, lastError: "not sent: its routing policy sends no email" })]);
    expect(marker[0]?.failedAt).not.toBeNull();
    expect(await queueEscalationEmails(database.db)).toBe(0);
  });

  it("reminders go to the routed group's members, and a row says so when none of them gets email", async () => {
    await saveRoutingVersion(database.db, { source: ROUTING }, ADMIN);
    const routed = await escalation({ createdAt: new Date(Date.now() - 60_000) });
    await routeNewEscalations(database.db);
    const deadline = (await row(routed.id)).expiresAt!;
    const reminders = async () => (await database.db.notificationDelivery.findMany({ where: { escalationId: routed.id, event: "reminder:2h" }, orderBy: { recipient: "asc" } })).map((entry) => [entry.recipient, entry.failedAt === null]);
    expect(await queueReminders(database.db, [2], new Date(deadline.getTime() - HOUR))).toBe(1);
    expect(await reminders()).toEqual([["sec@example.test", true]]);

    await setGroupChannels(database.db, { groupId: groupIds.security!, notifyEmail: false }, ADMIN);
    try {
      await database.db.notificationDelivery.deleteMany();
      expect(await queueReminders(database.db, [2], new Date(deadline.getTime() - HOUR))).toBe(0);
      expect(await reminders()).toEqual([[NOBODY, false]]);
    } finally {
      await setGroupChannels(database.db, { groupId: groupIds.security!, notifyEmail: true }, ADMIN);
    }
  });

  it("the queue's 'my groups' shows what is offered to my groups or to everyone", async () => {
    const mine = await escalation();
    const everyone = await escalation();
    const theirs = await escalation();
    await database.db.escalation.update({ where: { id: mine.id }, data: { reviewGroup: "security", routedAt: new Date() } });
    await database.db.escalation.update({ where: { id: theirs.id }, data: { reviewGroup: "leads", routedAt: new Date() } });
    const ids = async (reviewer: string, search?: string) => (await listEscalations(database.db, { offeredTo: "mine", search }, { reviewer })).items.map((item) => item.id).sort();
    expect(await ids("sec@example.test")).toEqual([mine.id, everyone.id].sort());
    expect(await ids("lead@example.test")).toEqual([everyone.id, theirs.id].sort());
    expect(await ids("admin@example.test")).toEqual([everyone.id]);
    // Combined with a search (whose own OR must not replace the groups' condition).
    expect(await ids("sec@example.test", "implement")).toEqual([mine.id, everyone.id].sort());
    expect((await listEscalations(database.db, {}, { reviewer: "admin@example.test" })).items).toHaveLength(3);
  });
});
