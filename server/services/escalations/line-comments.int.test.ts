import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { createTRPCContext, type Actor } from "@/server/api/trpc";
import { createDoorbell } from "@/server/durable/doorbell";
import { TEST_PROVIDERS } from "@/server/persistence/testing/test-database";
import { LINE_COMMENT_LIMITS } from "@/server/review-comments/line-comment";
import { pairDurableStore } from "@/server/services/durable-store-for";
import { until } from "@/server/testing/until";
import { RunWorker } from "@/server/worker/run-worker";
import { createDurableFixture, type DurableFixture } from "@/server/worker/testing/durable-fixture";

const ada: Actor = { id: "u-ada", email: "ada@example.test", role: "reviewer", via: "session" };
const bob: Actor = { id: "u-bob", email: "bob@example.test", role: "admin", via: "session" };

// Lines: 1 import os, 2-3 blank, 4 def, 5 os.system, 6-7 blank, 8 call, 9 the empty line after the last newline.
const SHELL_SCRIPT = "import os\n\n\ndef disk_usage(path):\n    os.system('du -sh ' + path)\n\n\ndisk_usage('.')\n";
const SAFE_SCRIPT = "def disk_usage(path):\n    return len(path)\n\n\nprint(disk_usage('.'))\n";

/** Review like a pull request: line comments and suggestions submitted with one decision, through the API and a worker. */
describe.each(TEST_PROVIDERS)("line comments with a decision on %s", (provider) => {
  let fixture: DurableFixture;
  let worker: RunWorker;
  const as = (actor: Actor) => createCaller(createTRPCContext({ db: fixture.database.db, actor }));
  const db = () => fixture.database.db;

  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    pairDurableStore(fixture.database.db, fixture.store);
    worker = new RunWorker(fixture.store, createDoorbell(fixture.database.url), { leaseMs: 5_000, escalationTimeoutMs: 3_600_000, maxRetries: 3, compile: {}, concurrency: 2, pollMs: 100, log: (line) => console.error(line) });
    worker.start();
    for (const actor of [ada, bob]) await db().user.create({ data: { id: actor.id!, name: actor.email, email: actor.email, role: actor.role } });
  });
  afterAll(async () => {
    await worker?.stop(1_000);
    await fixture?.dispose();
  });

  const runEnded = (runId: string) =>
    until(async () => {
      const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
      return ["succeeded", "failed", "cancelled"].includes(run.status) ? run : undefined;
    });

  async function escalatedRun(attempts: string[] = [SHELL_SCRIPT]) {
    const cassette = { ...fixture.replay("sandbox-escalation").cassette, steps: { write_script: attempts } };
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["sandbox-escalation"]!, specification: "disk usage", generatorOverride: { kind: "replay", cassette } });
    const escalation = await until(() => db().escalation.findFirst({ where: { runId, status: "pending" }, include: { artifact: true } }).then((row) => row ?? undefined));
    return { runId, escalationId: escalation.id, contentHash: escalation.artifact?.contentHash ?? "" };
  }

  it("approve with suggestions: the suggestions applied are the edit, the guards pass it, the comments are stored and shown", async () => {
    const { runId, escalationId, contentHash } = await escalatedRun();
    await as(ada).escalation.get({ id: escalationId });
    const comments = [
      { line: 5, body: "no shell: the length will do", suggestion: "    return len(path)" },
      { line: 1, endLine: 3, body: "not needed any more", suggestion: "" },
      { line: 4, body: "good name" },
      { line: 8, body: "", suggestion: "print(disk_usage('.'))" },
    ];
    const outcome = await as(ada).escalation.decide({ escalationId, contentHash, decision: "edit_and_approve", comments });
    expect(outcome).toMatchObject({ status: "approved", decision: "edit_and_approve" });
    expect((await runEnded(runId)).status).toBe("succeeded");
    const edited = await db().artifact.findFirstOrThrow({ where: { runId, parentId: { not: null } } });
    expect(edited).toMatchObject({ content: SAFE_SCRIPT, passed: true });

    const review = await as(bob).escalation.get({ id: escalationId });
    if (review.kind !== "guard") throw new Error("expected a guard escalation");
    expect(review.comments.map(({ author, line, endLine, body, suggestion, decision }) => ({ author, line, endLine, body, suggestion, decision }))).toEqual([
      { author: ada.email, line: 1, endLine: 3, body: "not needed any more", suggestion: "", decision: "edit_and_approve" },
      { author: ada.email, line: 4, endLine: null, body: "good name", suggestion: null, decision: "edit_and_approve" },
      { author: ada.email, line: 5, endLine: null, body: "no shell: the length will do", suggestion: "    return len(path)", decision: "edit_and_approve" },
      { author: ada.email, line: 8, endLine: null, body: "", suggestion: "print(disk_usage('.'))", decision: "edit_and_approve" },
    ]);
  });

  it("request changes: the feedback lists every comment with its line numbers and quoted line, and the next attempt's prompt carries it", async () => {
    const { runId, escalationId, contentHash } = await escalatedRun([SHELL_SCRIPT, SAFE_SCRIPT]);
    await as(ada).escalation.decide({
      escalationId,
      contentHash,
      decision: "reject_with_feedback",
      comment: "Keep it to the standard library.",
      comments: [
        { line: 5, body: "never call os.system", suggestion: "    return len(path)" },
        { line: 1, body: "unused once the shell call is gone" },
      ],
    });
    const expected = [
      "Keep it to the standard library.",
      "",
      "Review comments on your last attempt, by line number:",
      "line 1: unused once the shell call is gone",
      "  > import os",
      "line 5: never call os.system",
      "  >     os.system('du -sh ' + path)",
      "  suggested replacement:",
      "  |     return len(path)",
    ].join("\n");
    expect((await db().escalation.findUniqueOrThrow({ where: { id: escalationId } })).comment).toBe(expected);
    expect((await runEnded(runId)).status).toBe("succeeded");
    const generations = await db().ledgerEntry.findMany({ where: { runId, type: "generator.completed" }, orderBy: { seq: "asc" }, select: { payload: true } });
    const prompts = generations.map((entry) => String((entry.payload as { metadata?: { prompt?: unknown } }).metadata?.prompt ?? ""));
    expect(prompts).toHaveLength(2);
    expect(prompts[0]).not.toContain("line 5:");
    expect(prompts[1]).toContain(expected);
    expect(await db().reviewComment.count({ where: { escalationId, decision: "reject_with_feedback" } })).toBe(2);
  });

  it("request changes needs no summary when there are line comments; a plain reject keeps its reason and stores the comments", async () => {
    const sent = await escalatedRun([SHELL_SCRIPT, SAFE_SCRIPT]);
    await as(bob).escalation.decide({ escalationId: sent.escalationId, contentHash: sent.contentHash, decision: "reject_with_feedback", comments: [{ line: 5, body: "no shell" }] });
    expect((await db().escalation.findUniqueOrThrow({ where: { id: sent.escalationId } })).comment).toBe("Review comments on your last attempt, by line number:\nline 5: no shell\n  >     os.system('du -sh ' + path)");
    await runEnded(sent.runId);

    const rejected = await escalatedRun();
    await as(bob).escalation.decide({ escalationId: rejected.escalationId, contentHash: rejected.contentHash, decision: "reject", comment: "not this", comments: [{ line: 5, body: "this is why" }] });
    expect((await db().escalation.findUniqueOrThrow({ where: { id: rejected.escalationId } })).comment).toBe("not this");
    expect(await db().reviewComment.findMany({ where: { escalationId: rejected.escalationId }, select: { line: true, body: true, decision: true, author: true } })).toEqual([{ line: 5, body: "this is why", decision: "reject", author: bob.email }]);
    expect((await runEnded(rejected.runId)).status).toBe("failed");
  });

  it("refuses comments that do not fit, naming the comment and field, and writes nothing", async () => {
    const { runId, escalationId, contentHash } = await escalatedRun();
    await as(ada).escalation.get({ id: escalationId });
    const decide = (input: Record<string, unknown>) => as(ada).escalation.decide({ escalationId, contentHash, decision: "edit_and_approve", ...input });
    await expect(decide({ comments: [{ line: 10, body: "", suggestion: "x" }] })).rejects.toMatchObject({ code: "BAD_REQUEST", message: "comments[0].line: line 10 is past the artifact's last line (9)" });
    await expect(decide({ comments: [{ line: 4, endLine: 12, body: "x" }] })).rejects.toThrow("comments[0].endLine: line 12 is past the artifact's last line (9)");
    await expect(decide({ comments: [{ line: 4, endLine: 5, body: "", suggestion: "a" }, { line: 5, body: "", suggestion: "b" }] })).rejects.toThrow(
      "comments[1]: its suggestion on line 5 overlaps the suggestion of comments[0] on lines 4-5; keep one of them",
    );
    await expect(decide({ editedContent: SAFE_SCRIPT, comments: [{ line: 5, body: "", suggestion: "    pass" }] })).rejects.toThrow("editedContent: give either an edited artifact or suggested changes, not both");
    await expect(decide({ comments: [{ line: 5, body: "", suggestion: "    os.system('du -sh ' + path)" }] })).rejects.toThrow(/editedContent: is unchanged/);
    await expect(as(ada).escalation.decide({ escalationId, contentHash, decision: "approve", comments: [{ line: 2, body: "ok" }, { line: 5, body: "", suggestion: "    pass" }] })).rejects.toThrow(
      /^comments\[1\]\.suggestion: approve accepts the artifact as it is/,
    );
    await expect(decide({ comments: [{ line: 0, body: "x" }] })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("must be a line number from 1") });
    await expect(decide({ comments: [{ line: 1, body: "  " }] })).rejects.toThrow("comments[0].body: a comment needs a remark or a suggested change");
    const tooMany = Array.from({ length: LINE_COMMENT_LIMITS.comments + 1 }, () => ({ line: 1, body: "x" }));
    await expect(decide({ comments: tooMany })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(`at most ${LINE_COMMENT_LIMITS.comments} comments`) });
    const wordy = Array.from({ length: 20 }, () => ({ line: 1, body: "x".repeat(LINE_COMMENT_LIMITS.body) }));
    await expect(as(ada).escalation.decide({ escalationId, contentHash, decision: "reject_with_feedback", comments: wordy })).rejects.toThrow(/the next prompt takes at most 60000: shorten the comments/);

    expect(await db().reviewComment.count({ where: { escalationId } })).toBe(0);
    expect((await db().escalation.findUniqueOrThrow({ where: { id: escalationId } })).status).toBe("pending");
    expect(await db().inboxMessage.count({ where: { runId, kind: "resume" } })).toBe(0);
    await as(ada).escalation.decide({ escalationId, contentHash, decision: "reject" });
  });

  it("of two decisions at once, only the winner's comments are stored", async () => {
    for (let round = 0; round < 5; round++) {
      const { escalationId, contentHash, runId } = await escalatedRun();
      await db().escalationView.createMany({ data: [ada, bob].map((actor) => ({ escalationId, reviewer: actor.email })) });
      const results = await Promise.allSettled([
        as(ada).escalation.decide({ escalationId, contentHash, decision: "reject_with_feedback", comments: [{ line: 5, body: "ada's" }, { line: 1, body: "ada's too" }] }),
        as(bob).escalation.decide({ escalationId, contentHash, decision: "approve", comments: [{ line: 4, body: "bob's" }] }),
      ]);
      const winner = results.findIndex((result) => result.status === "fulfilled");
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      const stored = await db().reviewComment.findMany({ where: { escalationId }, select: { author: true } });
      expect(stored.map((row) => row.author)).toEqual(winner === 0 ? [ada.email, ada.email] : [bob.email]);
      await runEnded(runId);
    }
  }, 120_000);
});
