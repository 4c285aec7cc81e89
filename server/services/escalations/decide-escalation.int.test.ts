import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { createTRPCContext, type Actor } from "@/server/api/trpc";
import { createDb, type Db } from "@/server/persistence/db";
import { DurableStore } from "@/server/durable/durable-store";
import { openSqlClient } from "@/server/persistence/sql/open-sql-client";
import { TEST_PROVIDERS } from "@/server/persistence/testing/test-database";
import { createDoorbell } from "@/server/durable/doorbell";
import { RunWorker } from "@/server/worker/run-worker";
import { createDurableFixture, type DurableFixture } from "@/server/worker/testing/durable-fixture";
import { sweep } from "@/server/worker/watchdog";
import { pairDurableStore } from "@/server/services/durable-store-for";

const turnOptions = { leaseMs: 5_000, escalationTimeoutMs: 60_000, maxRetries: 3, compile: {} };
const ada: Actor = { id: "u-ada", email: "ada@example.test", role: "reviewer", via: "session" };
const bob: Actor = { id: "u-bob", email: "bob@example.test", role: "admin", via: "token" };
const vic: Actor = { id: "u-vic", email: "vic@example.test", role: "viewer", via: "session" };

const SHELL_SCRIPT = "import os\n\n\ndef disk_usage(path):\n    os.system('du -sh ' + path)\n\n\ndisk_usage('.')\n";
// The security guard forbids shutil too, so the safe version reports without any import.
const SAFE_SCRIPT = "def disk_usage(path):\n    return len(path)\n\n\nprint(disk_usage('.'))\n";

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000, describe?: () => Promise<string>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting${describe ? `: ${await describe()}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const providers = TEST_PROVIDERS;

describe.each(providers)("escalation decisions on %s", (provider) => {
  let fixture: DurableFixture;
  let worker: RunWorker;
  const as = (actor: Actor | null) => createCaller(createTRPCContext({ db: fixture.database.db, actor }));

  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    pairDurableStore(fixture.database.db, fixture.store);
    worker = new RunWorker(fixture.store, createDoorbell(fixture.database.url), { ...turnOptions, concurrency: 2, pollMs: 100, log: (line) => console.error(line) });
    worker.start();
    // Assignment hands items only to people who exist and may decide.
    for (const actor of [ada, bob, vic]) await fixture.database.db.user.create({ data: { id: actor.id, name: actor.email, email: actor.email, role: actor.role } });
    await fixture.database.db.user.create({ data: { id: "u-gone", name: "gone", email: "gone@example.test", role: "reviewer", disabled: true } });
  });
  afterAll(async () => {
    await worker.stop(1_000);
    await fixture.dispose();
  });

  const runStatus = (runId: string, statuses: string[]) =>
    until(async () => {
      const run = await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId } });
      return statuses.includes(run.status) ? run : undefined;
    }, 20_000, async () => JSON.stringify(await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true, currentState: true, finalResult: true, ledgerEntries: { select: { type: true, payload: true } } } })));

  /** A sandbox-escalation run suspended on its fatal security verdict; `attempts` are the cassette's scripts. */
  async function escalatedRun(attempts: string[] = [SHELL_SCRIPT]) {
    const cassette = { ...fixture.replay("sandbox-escalation").cassette, steps: { write_script: attempts } };
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["sandbox-escalation"]!, specification: "disk usage", generatorOverride: { kind: "replay", cassette } });
    await runStatus(runId, ["suspended"]);
    const escalation = await fixture.database.db.escalation.findFirstOrThrow({ where: { runId, status: "pending" }, include: { artifact: true } });
    return { runId, escalation, contentHash: escalation.artifact?.contentHash ?? "" };
  }

  it("lists the escalation with counts, and get gives the review page everything incl. canDecide by role", async () => {
    const { escalation } = await escalatedRun();
    const list = await as(vic).escalation.list({ workflow: "sandbox-escalation", sort: "newest" });
    expect(list.items[0]).toMatchObject({ id: escalation.id, workflow: "sandbox-escalation", specification: "disk usage", stepName: "write_script", status: "pending", claimedBy: null });
    expect(list.counts.pending).toBeGreaterThanOrEqual(1);
    expect((await as(vic).escalation.list({ step: "no_such_step" })).items).toEqual([]);

    const review = await as(vic).escalation.get({ id: escalation.id });
    if (review.kind !== "guard") throw new Error(`expected a guard escalation, got ${review.kind}`);
    expect(review.canDecide).toBe(false);
    expect(review.artifact.content).toBe(SHELL_SCRIPT);
    expect(review.run.specification).toBe("disk usage");
    expect(review.escalation.feedback).toMatch(/os\.system/);
    expect(review.offendingLine).toBe(5);
    expect(review.stateMachine?.states).toEqual(["scripting", "done"]);
    expect((await as(ada).escalation.get({ id: escalation.id })).canDecide).toBe(true);
  });

  it("approve: recorded with who, when and the hash; the run resumes and succeeds", async () => {
    const { runId, escalation, contentHash } = await escalatedRun();
    await as(ada).escalation.get({ id: escalation.id });
    const outcome = await as(ada).escalation.decide({ escalationId: escalation.id, contentHash, decision: "approve", comment: "shell call is fine here" });
    expect(outcome).toMatchObject({ status: "approved", decidedBy: ada.email, runId });
    const row = await fixture.database.db.escalation.findUniqueOrThrow({ where: { id: escalation.id } });
    expect(row).toMatchObject({ status: "approved", decision: "approve", decidedBy: ada.email, decidedHash: contentHash, comment: "shell call is fine here" });
    expect(row.decidedAt).toBeInstanceOf(Date);
    const decided = await fixture.database.db.ledgerEntry.findFirstOrThrow({ where: { runId, type: "escalation.decided" } });
    expect(decided.payload).toMatchObject({ decision: "approve", decidedBy: ada.email, contentHash });
    expect((await runStatus(runId, ["succeeded", "failed"])).status).toBe("succeeded");
  });

  it("approving a fatal escalation needs its review page opened first; rejecting does not", async () => {
    const { escalation, contentHash } = await escalatedRun();
    const listed = async (actor: Actor) => (await as(actor).escalation.list({ status: "pending" })).items.find((item) => item.id === escalation.id);
    expect(await listed(ada)).toMatchObject({ fatal: true, seenByYou: false });
    for (const decision of ["approve", "edit_and_approve"] as const) {
      await expect(as(ada).escalation.decide({ escalationId: escalation.id, contentHash, decision, editedContent: SAFE_SCRIPT })).rejects.toMatchObject({
        code: "CONFLICT",
        message: expect.stringContaining("Open the review page first: a fatal escalation is approved only by a reviewer who has seen its code"),
      });
    }
    // A viewer reading the page records nothing: only someone who may decide has "seen" it.
    await as(vic).escalation.get({ id: escalation.id });
    expect(await fixture.database.db.escalationView.count({ where: { escalationId: escalation.id } })).toBe(0);
    await as(ada).escalation.get({ id: escalation.id });
    await as(ada).escalation.get({ id: escalation.id });
    expect(await listed(ada)).toMatchObject({ seenByYou: true });
    expect(await listed(bob)).toMatchObject({ seenByYou: false });
    // Seen by ada is not seen by bob.
    await expect(as(bob).escalation.decide({ escalationId: escalation.id, contentHash, decision: "approve" })).rejects.toThrow(/Open the review page first/);
    expect(await as(ada).escalation.decide({ escalationId: escalation.id, contentHash, decision: "approve" })).toMatchObject({ status: "approved" });

    const unseen = await escalatedRun();
    expect(await as(bob).escalation.decide({ escalationId: unseen.escalation.id, contentHash: unseen.contentHash, decision: "reject", comment: "no" })).toMatchObject({ status: "rejected" });
  });

  it("nextPending goes through the pending queue in deadline order, skipping items others claimed", async () => {
    const first = await escalatedRun();
    const second = await escalatedRun();
    const third = await escalatedRun();
    const deadline = (minutes: number) => new Date(Date.now() + minutes * 60_000);
    // Deadlines far ahead of every other test's escalations, so these three are the queue's tail in this order.
    await fixture.database.db.escalation.update({ where: { id: first.escalation.id }, data: { expiresAt: deadline(10_000) } });
    await fixture.database.db.escalation.update({ where: { id: second.escalation.id }, data: { expiresAt: deadline(10_001) } });
    await fixture.database.db.escalation.update({ where: { id: third.escalation.id }, data: { expiresAt: deadline(10_002) } });
    expect(await as(ada).escalation.nextPending({ after: first.escalation.id })).toEqual({ id: second.escalation.id });
    await as(bob).escalation.claim({ escalationId: second.escalation.id });
    expect(await as(ada).escalation.nextPending({ after: first.escalation.id })).toEqual({ id: third.escalation.id });
    expect(await as(bob).escalation.nextPending({ after: first.escalation.id })).toEqual({ id: second.escalation.id });
    // From a decided escalation, on from where it was.
    await as(ada).escalation.decide({ escalationId: first.escalation.id, contentHash: first.contentHash, decision: "reject" });
    expect(await as(bob).escalation.nextPending({ after: first.escalation.id })).toEqual({ id: second.escalation.id });
    await expect(as(ada).escalation.nextPending({ after: "no-such-escalation" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(as(null).escalation.nextPending({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    for (const escalation of [second, third]) await as(bob).escalation.decide({ escalationId: escalation.escalation.id, contentHash: escalation.contentHash, decision: "reject" });
  });

  it("reject: the run ends failed with the reviewer's reason", async () => {
    const { runId, escalation, contentHash } = await escalatedRun();
    await as(bob).escalation.decide({ escalationId: escalation.id, contentHash, decision: "reject", comment: "never shell out" });
    const run = await runStatus(runId, ["succeeded", "failed"]);
    expect(run.status).toBe("failed");
    expect(run.finalResult).toMatchObject({ reason: `Rejected by ${bob.email}: never shell out` });
  });

  it("reject with feedback: the step retries (one attempt of its budget) and the next attempt passes", async () => {
    const { runId, escalation, contentHash } = await escalatedRun([SHELL_SCRIPT, SAFE_SCRIPT]);
    await expect(as(ada).escalation.decide({ escalationId: escalation.id, contentHash, decision: "reject_with_feedback", comment: "  " })).rejects.toThrow(/comment: reject with feedback needs/);
    await as(ada).escalation.decide({ escalationId: escalation.id, contentHash, decision: "reject_with_feedback", comment: "Do not shell out; no imports needed" });
    expect((await runStatus(runId, ["succeeded", "failed"])).status).toBe("succeeded");
    const artifacts = await fixture.database.db.artifact.findMany({ where: { runId }, orderBy: { attempt: "asc" } });
    expect(artifacts.map((artifact) => [artifact.attempt, artifact.passed, artifact.parentId])).toEqual([
      [1, false, null],
      [2, true, escalation.artifactId],
    ]);
  });

  it("edit and approve: the edit is a child artifact, checked by the guards; a passing edit finishes the run", async () => {
    const { runId, escalation, contentHash } = await escalatedRun();
    await as(ada).escalation.get({ id: escalation.id });
    await as(ada).escalation.decide({ escalationId: escalation.id, contentHash, decision: "edit_and_approve", editedContent: SAFE_SCRIPT });
    expect((await runStatus(runId, ["succeeded", "failed"])).status).toBe("succeeded");
    const edited = await fixture.database.db.artifact.findFirstOrThrow({ where: { runId, parentId: escalation.artifactId } });
    expect(edited).toMatchObject({ content: SAFE_SCRIPT, passed: true });
  });

  it("edit and approve: an edit the security guard still finds fatal escalates again, pinned to the edit", async () => {
    const { runId, escalation, contentHash } = await escalatedRun();
    const stillBad = SHELL_SCRIPT.replace("du -sh", "du -s");
    await as(ada).escalation.get({ id: escalation.id });
    await as(ada).escalation.decide({ escalationId: escalation.id, contentHash, decision: "edit_and_approve", editedContent: stillBad });
    const again = await until(() => fixture.database.db.escalation.findFirst({ where: { runId, status: "pending" }, include: { artifact: true } }).then((row) => row ?? undefined));
    expect(again.artifact).toMatchObject({ content: stillBad, parentId: escalation.artifactId });
    expect(again.decisionKey).toMatch(/\/edit\/decision$/);
    await as(ada).escalation.get({ id: again.id });
    await as(ada).escalation.decide({ escalationId: again.id, contentHash: again.artifact?.contentHash ?? "", decision: "approve" });
    expect((await runStatus(runId, ["succeeded", "failed"])).status).toBe("succeeded");
  });

  it("refuses a hash that is not the pending artifact's, and changes nothing", async () => {
    const { runId, escalation } = await escalatedRun();
    await expect(as(ada).escalation.decide({ escalationId: escalation.id, contentHash: "0".repeat(64), decision: "approve" })).rejects.toThrow(/is not the pending artifact/);
    await expect(as(ada).escalation.decide({ escalationId: escalation.id, contentHash: "abc", decision: "approve" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/must be the artifact's SHA-256/) });
    expect((await fixture.database.db.escalation.findUniqueOrThrow({ where: { id: escalation.id } })).status).toBe("pending");
    expect(await fixture.database.db.inboxMessage.count({ where: { runId, kind: "resume" } })).toBe(0);
  });

  it("refuses decisions on an expired and on a cancelled escalation with a clear message", async () => {
    const expired = await escalatedRun();
    await fixture.database.db.run.update({ where: { id: expired.runId }, data: { resumeDeadline: new Date(Date.now() - 1000) } });
    await sweep(fixture.store);
    await expect(as(ada).escalation.decide({ escalationId: expired.escalation.id, contentHash: expired.contentHash, decision: "approve" })).rejects.toThrow(/expired.*stopped waiting for a decision/);

    const cancelled = await escalatedRun();
    await fixture.store.requestCancel(cancelled.runId, "not needed");
    await runStatus(cancelled.runId, ["cancelled"]);
    await expect(as(ada).escalation.decide({ escalationId: cancelled.escalation.id, contentHash: cancelled.contentHash, decision: "approve" })).rejects.toThrow(/was cancelled/);

    // Past its deadline but not swept yet: still refused.
    const late = await escalatedRun();
    await fixture.database.db.escalation.update({ where: { id: late.escalation.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect(as(ada).escalation.decide({ escalationId: late.escalation.id, contentHash: late.contentHash, decision: "approve" })).rejects.toThrow(/expired at/);
  });

  it("viewers may read but not claim or decide; anonymous callers may not read", async () => {
    const { escalation, contentHash } = await escalatedRun();
    await expect(as(vic).escalation.decide({ escalationId: escalation.id, contentHash, decision: "approve" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(as(vic).escalation.claim({ escalationId: escalation.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(as(null).escalation.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("claim shows who has it; a second claim is refused naming the holder; assign hands it over", async () => {
    const { escalation } = await escalatedRun();
    expect(await as(ada).escalation.claim({ escalationId: escalation.id })).toMatchObject({ claimedBy: ada.email });
    await expect(as(bob).escalation.claim({ escalationId: escalation.id })).rejects.toThrow(`${ada.email} already has escalation`);
    expect(await as(bob).escalation.assign({ escalationId: escalation.id, assignee: bob.email })).toMatchObject({ claimedBy: bob.email });
    const list = await as(vic).escalation.list({ status: "pending" });
    expect(list.items.find((item) => item.id === escalation.id)?.claimedBy).toBe(bob.email);
    expect(await as(ada).escalation.reviewers()).toEqual([ada.email, bob.email]);
  });

  it("assign refuses anyone who cannot decide, naming why, and leaves the holder as it was", async () => {
    const { escalation } = await escalatedRun();
    await as(ada).escalation.claim({ escalationId: escalation.id });
    const assign = (assignee: string) => as(ada).escalation.assign({ escalationId: escalation.id, assignee });
    await expect(assign(vic.email)).rejects.toThrow(`${vic.email} is a viewer and cannot decide escalations`);
    await expect(assign("nobody@example.test")).rejects.toThrow("no user has the email nobody@example.test");
    await expect(assign("gone@example.test")).rejects.toThrow("gone@example.test is disabled");
    await expect(assign("not-an-email")).rejects.toThrow('"not-an-email" is not an email address');
    await expect(as(vic).escalation.reviewers()).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await fixture.database.db.escalation.findUniqueOrThrow({ where: { id: escalation.id } })).claimedBy).toBe(ada.email);
    expect(await as(ada).escalation.assign({ escalationId: escalation.id, assignee: null })).toMatchObject({ claimedBy: null });
  });

  it("200 concurrent decisions on one escalation: exactly one wins, every other is told who decided first (3 rounds)", async () => {
    // On PostgreSQL four clients with a store each, so the attempts really are concurrent
    // transactions. SQLite serialises writers per process (a second connection in the same thread
    // would block the event loop in busy_timeout while the first awaits), so there the 200
    // attempts interleave on the one store, as a web server's requests do.
    const clients: { db: Db; store: DurableStore }[] = [];
    if (provider === "sqlite") clients.push({ db: fixture.database.db, store: fixture.store });
    for (let index = 0; provider === "postgres" && index < 4; index++) {
      const db = createDb(fixture.database.url);
      const store = new DurableStore(openSqlClient(fixture.database.url));
      pairDurableStore(db, store);
      clients.push({ db, store });
    }
    try {
      for (let round = 0; round < 3; round++) {
        const { runId, escalation, contentHash } = await escalatedRun();
        const deciders = Array.from({ length: 200 }, (_, index) => ({ ...ada, email: `reviewer${index}@example.test` }));
        // Every approver has opened the review page (an approval of unseen code is refused first).
        await fixture.database.db.escalationView.createMany({ data: deciders.map((actor) => ({ escalationId: escalation.id, reviewer: actor.email })) });
        const results = await Promise.allSettled(
          deciders.map((actor, index) =>
            createCaller(createTRPCContext({ db: clients[index % clients.length]!.db, actor })).escalation.decide({ escalationId: escalation.id, contentHash, decision: index % 2 === 0 ? "approve" : "reject" }),
          ),
        );
        const winners = results.filter((result) => result.status === "fulfilled");
        expect(winners).toHaveLength(1);
        const winner = (winners[0] as PromiseFulfilledResult<{ decidedBy: string }>).value.decidedBy;
        for (const result of results) {
          if (result.status === "rejected") expect(String(result.reason)).toContain(`${winner} decided first`);
        }
        expect(await fixture.database.db.ledgerEntry.count({ where: { runId, type: "escalation.decided" } })).toBe(1);
        expect(await fixture.database.db.inboxMessage.count({ where: { runId, kind: "resume" } })).toBe(1);
        await runStatus(runId, ["succeeded", "failed"]);
      }
    } finally {
      for (const client of clients) {
        if (client.store === fixture.store) continue;
        await client.store.close();
        await client.db.$disconnect();
      }
    }
  }, 120_000);
});
