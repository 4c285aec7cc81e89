import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { createTRPCContext, type Actor } from "@/server/api/trpc";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/server/persistence/testing/test-database";
import { cheapWorkflow } from "@/server/worker/testing/cheap-workflow";
import { addGroupMember } from "../reviewer-groups/add-group-member";
import { createReviewerGroup } from "../reviewer-groups/create-reviewer-group";
import { saveWorkflowDefinition } from "../workflows/save-definition";
import { routeNewEscalations } from "./route-new-escalations";
import { saveRoutingVersion } from "./save-routing-version";

const HASH = "2".repeat(64);
const person = (name: string, role: Actor["role"] = "reviewer"): Actor => ({ id: `u-${name}`, email: `${name}@example.test`, role, via: "session" });
const admin = person("admin", "admin");
const sam = person("sam");
const ada = person("ada");
const bob = person("bob");
const outsider = person("out");

const ROUTING = `rules:
  - name: first step needs two
    match: { workflow: many-runs, step: first }
    group: security
    quorum: { approvals: 2, exclude_run_starter: true }
default:
  group: null
`;

/**
 * The parts of issue 20 together: a routing document saved by an admin decides an escalation's
 * group and quorum; the routing pass writes them; the decision path enforces them (the group, the
 * starter rule, two distinct approvals) and the run resumes only on the second approval.
 */
describe.each(TEST_PROVIDERS)("a routed escalation decided by its group's quorum (%s)", (provider) => {
  let database: TestDatabase;
  let versionId: string;
  const as = (actor: Actor) => createCaller(createTRPCContext({ db: database.db, actor }));

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    const { db } = database;
    versionId = (await saveWorkflowDefinition(db, cheapWorkflow())).versionId;
    for (const actor of [admin, sam, ada, bob, outsider]) await db.user.create({ data: { id: actor.id, name: actor.email, email: actor.email, role: actor.role } });
    const { id: groupId } = await createReviewerGroup(db, { name: "security" }, admin);
    for (const member of [sam, ada, bob]) await addGroupMember(db, { groupId, email: member.email }, admin);
    await saveRoutingVersion(db, { source: ROUTING, comment: "two for the first step" }, admin);
  });
  afterAll(() => database.dispose());

  async function escalation(stepName: string) {
    const { db } = database;
    const runId = randomUUID();
    const artifactId = randomUUID();
    const escalationId = randomUUID();
    const later = new Date(Date.now() + 3_600_000);
    await db.run.create({ data: { id: runId, workflowVersionId: versionId, specification: "routed", status: "suspended", epoch: 1, workflowState: {}, resumeDeadline: later, startedBy: sam.email } });
    await db.artifact.create({ data: { id: artifactId, runId, stepName, guardId: "g_a", attempt: 1, content: '{"a": 1}', contentHash: HASH, passed: false, fatal: false, feedback: "needs a look" } });
    await db.escalation.create({ data: { id: escalationId, runId, artifactId, stepName, guardId: "g_a", feedback: "needs a look", decisionKey: `${stepName}/attempt-1/decision`, expiresAt: later } });
    return { runId, escalationId, decide: (actor: Actor, decision: "approve" | "reject") => as(actor).escalation.decide({ escalationId, contentHash: HASH, decision }) };
  }

  it("routes to the group, refuses an outsider and the starter, and decides on the second member's approval", async () => {
    const { runId, escalationId, decide } = await escalation("first");
    expect(await routeNewEscalations(database.db)).toBe(1);
    expect(await database.db.escalation.findUniqueOrThrow({ where: { id: escalationId } })).toMatchObject({ reviewGroup: "security", routingVersion: 1 });

    const outsidersView = await as(outsider).escalation.get({ id: escalationId });
    expect(outsidersView).toMatchObject({ canDecide: false, decideRefusal: expect.stringContaining("offered to the group security, and you are not in it") });
    await expect(decide(outsider, "approve")).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("you are not in it") });
    await expect(decide(sam, "approve")).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("you started this run") });

    expect(await decide(ada, "approve")).toMatchObject({ status: "pending", quorum: { summary: "1 of 2 approvals (ada@example.test)" } });
    expect(await database.db.inboxMessage.count({ where: { runId, kind: "resume" } })).toBe(0);
    expect(await decide(bob, "approve")).toMatchObject({ status: "approved", decidedBy: bob.email });
    expect(await database.db.inboxMessage.count({ where: { runId, kind: "resume" } })).toBe(1);
    // Nothing the refused people tried was recorded as a vote.
    expect((await database.db.escalationApproval.findMany({ where: { escalationId }, orderBy: { reviewer: "asc" } })).map((row) => row.reviewer)).toEqual([ada.email, bob.email]);
  });

  it("routes an escalation the routing pass has not reached before deciding it: no outsider or lone approval slips in first", async () => {
    const { runId, escalationId, decide } = await escalation("first");
    // No routing pass yet: the decision itself must give it its policy.
    await expect(decide(outsider, "approve")).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("you are not in it") });
    expect(await database.db.escalation.findUniqueOrThrow({ where: { id: escalationId } })).toMatchObject({ status: "pending", reviewGroup: "security", routingVersion: 1 });
    expect(await decide(ada, "approve")).toMatchObject({ status: "pending", quorum: { summary: "1 of 2 approvals (ada@example.test)" } });
    expect(await database.db.inboxMessage.count({ where: { runId, kind: "resume" } })).toBe(0);
  });

  it("refuses a claim or assignment outside the group: such a claim would only keep the backup group from being offered it", async () => {
    const { escalationId } = await escalation("first");
    await routeNewEscalations(database.db);
    await expect(as(outsider).escalation.claim({ escalationId })).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("you are not in it") });
    await expect(as(admin).escalation.assign({ escalationId, assignee: outsider.email })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("is not in the group security") });
    expect(await database.db.escalation.findUniqueOrThrow({ where: { id: escalationId } })).toMatchObject({ claimedBy: null });
    expect(await as(ada).escalation.claim({ escalationId })).toMatchObject({ claimedBy: ada.email });
    expect(await as(admin).escalation.assign({ escalationId, assignee: bob.email })).toMatchObject({ claimedBy: bob.email });
    // An admin may step in for any group, so may be handed it.
    expect(await as(ada).escalation.assign({ escalationId, assignee: admin.email })).toMatchObject({ claimedBy: admin.email });
  });

  it("lets an admin outside the group decide, and leaves an escalation no rule names to any reviewer", async () => {
    const routed = await escalation("first");
    const unrouted = await escalation("second");
    await routeNewEscalations(database.db);
    expect(await database.db.escalation.findUniqueOrThrow({ where: { id: unrouted.escalationId } })).toMatchObject({ reviewGroup: null });
    expect(await routed.decide(admin, "reject")).toMatchObject({ status: "rejected", decidedBy: admin.email });
    expect(await unrouted.decide(outsider, "approve")).toMatchObject({ status: "approved", decidedBy: outsider.email });
  });
});
