import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { createTRPCContext, type Actor } from "@/server/api/trpc";
import { decisionLinkKey, newDecisionLinkId, signDecisionLink } from "@/server/notifications/decision-link-token";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/server/persistence/testing/test-database";
import { cheapWorkflow } from "@/server/worker/testing/cheap-workflow";
import { decideByLink } from "../decision-links/decide-by-link";
import { saveWorkflowDefinition } from "../workflows/save-definition";

const HASH = "1".repeat(64);
const SECRET = "quorum-test-secret-quorum-test-secret";
const reviewer = (name: string): Actor => ({ id: `u-${name}`, email: `${name}@example.test`, role: "reviewer", via: "session" });
const sam = reviewer("sam");
const ada = reviewer("ada");
const bob = reviewer("bob");
const cy = reviewer("cy");

describe.each(TEST_PROVIDERS)("quorum decisions through the API and decision links (%s)", (provider) => {
  let database: TestDatabase;
  let versionId: string;
  const as = (actor: Actor) => createCaller(createTRPCContext({ db: database.db, actor }));

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    versionId = (await saveWorkflowDefinition(database.db, cheapWorkflow())).versionId;
    for (const actor of [sam, ada, bob, cy]) await database.db.user.create({ data: { id: actor.id, name: actor.email, email: actor.email, role: actor.role } });
  });
  afterAll(() => database.dispose());

  /** A run sam started, suspended on an escalation whose policy needs two approvals and excludes sam. */
  async function escalation(quorum = { approvals: 2, excludeRunStarter: true, rejections: 1 }) {
    const runId = randomUUID();
    const artifactId = randomUUID();
    const escalationId = randomUUID();
    const later = new Date(Date.now() + 3_600_000);
    await database.db.run.create({ data: { id: runId, workflowVersionId: versionId, specification: "quorum", status: "suspended", epoch: 1, workflowState: {}, resumeDeadline: later, startedBy: sam.email } });
    await database.db.artifact.create({ data: { id: artifactId, runId, stepName: "first", guardId: "g_a", attempt: 1, content: '{"a": 1}', contentHash: HASH, passed: false, fatal: false, feedback: "needs a look" } });
    await database.db.escalation.create({
      data: { id: escalationId, runId, artifactId, stepName: "first", guardId: "g_a", feedback: "needs a look", decisionKey: "first/attempt-1/decision", expiresAt: later, routedAt: new Date(), policy: { quorum } },
    });
    return { runId, escalationId, decide: (actor: Actor, decision: "approve" | "reject" | "edit_and_approve", extra: { editedContent?: string } = {}) => as(actor).escalation.decide({ escalationId, contentHash: HASH, decision, ...extra }) };
  }

  it("shows the starter why they cannot approve, refuses them, and lets two others decide", async () => {
    const { runId, escalationId, decide } = await escalation();
    const samsView = await as(sam).escalation.get({ id: escalationId });
    expect(samsView.quorum).toMatchObject({ summary: "0 of 2 approvals", approvalsNeeded: 2, excludeRunStarter: true, approvalRefusal: "you started this run, and its review policy needs the approval of someone else", voteRefusal: null });
    await expect(decide(sam, "approve")).rejects.toMatchObject({ code: "CONFLICT", message: `Escalation ${escalationId}: you started this run, and its review policy needs the approval of someone else.` });

    const first = await decide(ada, "approve");
    expect(first).toMatchObject({ status: "pending", decidedBy: ada.email, quorum: { summary: "1 of 2 approvals (ada@example.test)", approvedBy: [ada.email] } });
    expect((await as(ada).escalation.get({ id: escalationId })).quorum).toMatchObject({ yourVote: "approve", voteRefusal: "you already voted (approved); each reviewer votes once" });
    await expect(decide(ada, "approve")).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("you already voted (approved)") });

    const queue = await as(bob).escalation.list({ status: "pending" });
    expect(queue.items.find((item) => item.id === escalationId)?.quorum).toEqual({ summary: "1 of 2 approvals (ada@example.test)", yourVote: null, approvalRefusal: null });
    // An edit is one reviewer's decision: refused while two must approve.
    await expect(decide(bob, "edit_and_approve", { editedContent: '{"a": 2}' })).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("edit and approve is not possible when 2 reviewers must approve") });

    const second = await decide(bob, "approve");
    expect(second).toMatchObject({ status: "approved", runId, quorum: { outcome: "approved", approvedBy: [ada.email, bob.email], summary: "2 of 2 approvals (ada@example.test, bob@example.test)" } });
    expect(await database.db.escalation.findUniqueOrThrow({ where: { id: escalationId } })).toMatchObject({ status: "approved", decidedBy: bob.email, approvalCount: 2 });
    const audit = await database.db.auditEvent.findMany({ where: { target: `escalation:${escalationId}` }, orderBy: { at: "asc" } });
    expect(audit.map((event) => [event.action, event.actorEmail])).toEqual([
      ["escalation.voted", ada.email],
      ["escalation.voted", bob.email],
      ["escalation.decided", bob.email],
    ]);
    // The closed escalation still shows who voted.
    expect((await as(cy).escalation.get({ id: escalationId })).quorum?.votes.map((vote) => `${vote.vote} ${vote.reviewer}`)).toEqual([`approve ${ada.email}`, `approve ${bob.email}`]);
  });

  it("lets the starter's rejection decide: only approvals are theirs to lose", async () => {
    const { escalationId, decide } = await escalation();
    expect(await decide(sam, "reject")).toMatchObject({ status: "rejected", decidedBy: sam.email });
    await expect(decide(ada, "approve")).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("sam@example.test") });
    expect(await database.db.escalationApproval.count({ where: { escalationId } })).toBe(1);
  });

  it("counts a one-click link's approval as a vote", async () => {
    const { escalationId } = await escalation();
    const link = async (recipient: Actor) => {
      const claims = { linkId: newDecisionLinkId(), escalationId, recipient: recipient.email, decision: "approve" as const, contentHash: HASH, expiresAt: new Date(Date.now() + 3_600_000) };
      await database.db.decisionLink.create({ data: { id: claims.linkId, escalationId, recipient: claims.recipient, decision: "approve", contentHash: HASH, expiresAt: claims.expiresAt } });
      return signDecisionLink(decisionLinkKey(SECRET), claims);
    };
    const bySam = await decideByLink(database.db, SECRET, { token: await link(sam), contentHash: HASH });
    expect(bySam).toMatchObject({ ok: false, reason: expect.stringContaining("you started this run") });
    const byAda = await decideByLink(database.db, SECRET, { token: await link(ada), contentHash: HASH });
    expect(byAda).toMatchObject({ ok: true, outcome: { status: "pending", quorum: { summary: "1 of 2 approvals (ada@example.test)" } } });
    const byBob = await decideByLink(database.db, SECRET, { token: await link(bob), contentHash: HASH });
    expect(byBob).toMatchObject({ ok: true, outcome: { status: "approved" } });
  });

  it("says nothing of a quorum under the default policy", async () => {
    const { escalationId, decide } = await escalation({ approvals: 1, excludeRunStarter: false, rejections: 1 });
    expect((await as(sam).escalation.get({ id: escalationId })).quorum).toBeNull();
    expect(await decide(sam, "approve")).toMatchObject({ status: "approved", quorum: null });
  });
});
