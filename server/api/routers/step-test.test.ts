import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/persistence/db";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { ADDER_DOCUMENT, ADDER_TESTS, CORRECT_ADD, WRONG_ADD } from "@/server/services/step-test/testing/adder-workflow";
import { STEP_TEST_LIMITS } from "@/server/services/step-test/step-test-limits";
import type { Actor } from "../trpc";
import { createTestCaller, TEST_DATABASES } from "../testing/test-caller";

const person = (role: Actor["role"]): Actor => ({ id: `${role}-id`, email: `${role}@example.com`, role, via: "session" });

const implement = (answer: string) => ({
  document: ADDER_DOCUMENT,
  state: "implementing",
  step: "implement",
  dependencies: { test: ADDER_TESTS },
  generator: { kind: "answer" as const, answer },
});

/** Rows of every table a run, its attempts or a workflow save would write. */
async function rowCounts(db: Db) {
  const [workflows, versions, runs, artifacts, ledger, inbox, escalations] = await Promise.all([
    db.workflow.count(),
    db.workflowVersion.count(),
    db.run.count(),
    db.artifact.count(),
    db.ledgerEntry.count(),
    db.inboxMessage.count(),
    db.escalation.count(),
  ]);
  return { workflows, versions, runs, artifacts, ledger, inbox, escalations };
}

for (const { provider, enabled } of TEST_DATABASES) {
  describe.runIf(enabled)(`stepTest router on ${provider}`, () => {
    let database: TestDatabase;

    beforeAll(async () => {
      database = await createTestDatabase(provider);
    });
    afterAll(() => database?.dispose());

    it("lets reviewers and admins test a step in a process of its own, and writes nothing to the database", async () => {
      const admin = createTestCaller(database.db);
      const workflow = await admin.workflow.create({ document: ADDER_DOCUMENT });
      await admin.run.create({ workflowId: workflow.id });
      const before = await rowCounts(database.db);

      const passing = await createTestCaller(database.db, person("reviewer")).stepTest.run(implement(CORRECT_ADD));
      const failing = await admin.stepTest.run(implement(WRONG_ADD));

      expect(passing.outcome).toEqual({ kind: "passed" });
      expect(failing.attempts[0]?.guards.map((guard) => guard.verdict)).toEqual(["pass", "pass", "fail"]);
      expect(await rowCounts(database.db)).toEqual(before);
      // Each test starts a process of its own (tsx and the guard modules), which takes seconds on a busy machine.
    }, 180_000);

    it("refuses viewers and anonymous callers", async () => {
      await expect(createTestCaller(database.db, person("viewer")).stepTest.run(implement(CORRECT_ADD))).rejects.toMatchObject({
        code: "FORBIDDEN",
        message: "This needs the reviewer role; viewer@example.com is a viewer",
      });
      await expect(createTestCaller(database.db, null).stepTest.run(implement(CORRECT_ADD))).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    });

    it("bounds the input, naming the field", async () => {
      const caller = createTestCaller(database.db);
      await expect(caller.stepTest.run(implement("x".repeat(STEP_TEST_LIMITS.answerChars + 1)))).rejects.toMatchObject({
        code: "BAD_REQUEST",
        // In-process callers get zod's issues as the message (the HTTP error formatter joins them into "field: problem").
        message: expect.stringMatching(new RegExp(`"answer"[\\s\\S]*must be at most ${STEP_TEST_LIMITS.answerChars} characters`)),
      });
      await expect(caller.stepTest.run({ ...implement(CORRECT_ADD), dependencies: { test: "x".repeat(STEP_TEST_LIMITS.dependencyChars + 1) } })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringMatching(new RegExp(`"test"[\\s\\S]*must be at most ${STEP_TEST_LIMITS.dependencyChars} characters`)),
      });
      await expect(caller.stepTest.run({ ...implement(CORRECT_ADD), step: "nope" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: 'step: the draft has no step "nope"' });
    });

    it("lists earlier artifacts of the step's dependencies from this workflow's runs, passing ones first; viewers may read them", async () => {
      const admin = createTestCaller(database.db);
      const ours = await admin.workflow.create({ document: ADDER_DOCUMENT.replace("name: adder", "name: adder-pinned") });
      const theirs = await admin.workflow.create({ document: ADDER_DOCUMENT.replace("name: adder", "name: adder-other") });
      const run = await admin.run.create({ workflowId: ours.id });
      const otherRun = await admin.run.create({ workflowId: theirs.id });
      const artifact = (id: string, runId: string, passed: boolean, content: string) => ({ id, runId, stepName: "write_tests", guardId: "g_test", attempt: 1, content, contentHash: id, passed, fatal: false, feedback: "" });
      await database.db.artifact.createMany({
        data: [
          artifact("failed-tests", run.id, false, "broken"),
          artifact("good-tests", run.id, true, ADDER_TESTS),
          artifact("huge-tests", run.id, true, "x".repeat(STEP_TEST_LIMITS.dependencyChars + 1)),
          artifact("other-workflow-tests", otherRun.id, true, "not ours"),
        ],
      });

      const [dependency] = await createTestCaller(database.db, person("viewer")).stepTest.pinnable({ workflow: "adder-pinned", guardIds: ["g_test"] });

      expect(dependency?.name).toBe("test");
      expect(dependency?.artifacts.map((entry) => [entry.id, entry.verdict, entry.workflowVersion])).toEqual([
        [expect.stringMatching(/^(good|huge)-tests$/), "pass", 1],
        [expect.stringMatching(/^(good|huge)-tests$/), "pass", 1],
        ["failed-tests", "fail", 1],
      ]);
      expect(dependency?.artifacts.find((entry) => entry.id === "good-tests")?.content).toBe(ADDER_TESTS);
      expect(dependency?.artifacts.find((entry) => entry.id === "huge-tests")?.content).toBeNull();
    });
  });
}
