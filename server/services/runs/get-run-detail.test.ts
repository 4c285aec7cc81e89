import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  always,
  createPromptTemplate,
  failed,
  fatal,
  linearMachine,
  passed,
  runMachine,
  type Generator,
  type GuardResult,
  type WorkflowStep,
} from "@/server/engine";
import { PrismaRunRepository } from "@/server/persistence/prisma-run-repository";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { createTestCaller } from "@/server/api/testing/test-caller";
import { isServiceError } from "../errors";
import { createWorkflow } from "../workflows/create-workflow";
import { getRunDetail, LEDGER_ENTRY_LIMIT } from "./get-run-detail";

const template = createPromptTemplate({ role: "You write Python.", constraints: "Python 3.11", task: "Implement the specification." });

/** Answers from a script, each answer recorded in the run's ledger as a model call. */
function modelGenerator(script: readonly string[]): Generator {
  let index = 0;
  return {
    async generate(request) {
      const content = script[index++];
      if (content === undefined) throw new Error("modelGenerator: script exhausted");
      const outcome = await request.calls.call(`${request.callKey}/model`, { actor: "assistant", policy: "model", payload: { step: request.stepName } }, async () => ({ content }));
      if (!outcome.ok) throw new Error(outcome.error.message);
      return { content: String(outcome.result.content) };
    },
  };
}

function step(name: string, guardId: string, script: string[], verdicts: GuardResult[]): WorkflowStep {
  let call = 0;
  const guard = { validate: async () => verdicts[call++] ?? failed("no scripted verdict") };
  return { name, guardId, actionPair: { precondition: always, generator: modelGenerator(script), guard, template }, guardArtifactDeps: [], language: "python" };
}

describe("getRunDetail on SQLite", () => {
  let database: TestDatabase;
  let repository: PrismaRunRepository;
  let versionId: string;
  let workflowId: string;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite", { migrate: true });
    repository = new PrismaRunRepository(database.db);
    const workflow = await createWorkflow(database.db, { name: "lru", definition: { specification: "An LRU cache" } });
    workflowId = workflow.id;
    versionId = (await database.db.workflowVersion.findFirstOrThrow({ where: { workflowId }, select: { id: true } })).id;
  });
  afterAll(() => database?.dispose());

  async function executeRun(steps: WorkflowStep[]): Promise<string> {
    const run = await repository.create({ specification: "An LRU cache", workflowVersionId: versionId });
    await runMachine(linearMachine(steps), {
      specification: run.specification,
      dag: repository.dag(run.id),
      observer: repository.observer(run.id),
      calls: repository.calls(run.id),
    });
    return run.id;
  }

  it("gives a finished run's head, attempts in order with verdicts, result and ledger summary", async () => {
    const runId = await executeRun([
      step("write_tests", "g_test", ["def test_get(): ..."], [passed()]),
      step("implement", "g_impl", ["class LRUCache: pass", "class LRUCache: ..."], [failed("1 of 3 tests failed"), passed("3 tests passed")]),
    ]);

    const detail = await getRunDetail(database.db, { id: runId });

    expect(detail).toMatchObject({
      id: runId,
      status: "succeeded",
      epoch: 0,
      activeTurnId: null,
      leaseOwner: null,
      workflow: { id: workflowId, name: "lru", version: 1 },
      specification: "An LRU cache",
      contextValues: {},
      startedAt: expect.any(Date),
      finishedAt: expect.any(Date),
      finalResult: { status: "success", failedStep: null, reason: null, escalation: null },
      escalations: [],
    });
    expect(detail.attempts.map(({ stepName, attempt, passed, fatal, feedback, content, language }) => ({ stepName, attempt, passed, fatal, feedback, content, language }))).toEqual([
      { stepName: "write_tests", attempt: 1, passed: true, fatal: false, feedback: "", content: "def test_get(): ...", language: "python" },
      { stepName: "implement", attempt: 1, passed: false, fatal: false, feedback: "1 of 3 tests failed", content: "class LRUCache: pass", language: "python" },
      { stepName: "implement", attempt: 2, passed: true, fatal: false, feedback: "3 tests passed", content: "class LRUCache: ...", language: "python" },
    ]);
    // The retry refines the failed attempt: the provenance link is kept.
    expect(detail.attempts[2]?.parentId).toBe(detail.attempts[1]?.id);
    expect(detail.finalResult?.artifactIds).toEqual({ g_test: detail.attempts[0]?.id, g_impl: detail.attempts[2]?.id });

    const { ledger } = detail;
    expect(ledger.entries.map((entry) => entry.seq)).toEqual(Array.from({ length: ledger.total }, (_, i) => i + 1));
    expect(ledger.omitted).toBe(0);
    expect(ledger.entries[0]).toMatchObject({ seq: 1, actor: "engine", type: "run.started", epoch: 0, createdAt: expect.any(Date) });
    expect(ledger.entries.at(-1)).toMatchObject({ type: "run.finished", payload: { status: "success" } });
    expect(ledger.summary.modelCalls).toBe(3);
    expect(ledger.summary.countByType).toMatchObject({ action_call: 3, action_result: 3, "guard.completed": 3, "run.started": 1, "run.finished": 1 });
    expect(Object.values(ledger.summary.countByType).reduce((a, b) => a + b, 0)).toBe(ledger.total);
  });

  it("gives an escalated run its pending escalation with the fatal guard's feedback", async () => {
    const runId = await executeRun([step("write_script", "g_script", ["import os\nos.system('ls')"], [fatal("Security: os.system forbidden (line 2)")])]);

    const detail = await getRunDetail(database.db, { id: runId });

    // A run waiting on a person is "suspended" under the durable worker, "escalated" before it.
    expect(["suspended", "escalated"]).toContain(detail.status);
    expect(detail.attempts).toEqual([expect.objectContaining({ stepName: "write_script", passed: false, fatal: true, feedback: "Security: os.system forbidden (line 2)" })]);
    expect(detail.escalations).toEqual([
      {
        id: expect.any(String),
        stepName: "write_script",
        status: "pending",
        feedback: "Security: os.system forbidden (line 2)",
        artifactId: detail.attempts[0]?.id,
        expiresAt: null,
        // Undecided: no decision, reviewer or comment yet.
        decision: null,
        decidedBy: null,
        decidedAt: null,
        comment: null,
        createdAt: expect.any(Date),
      },
    ]);
    // A suspended run has not finished, so it has no result yet.
    const expectedResult = detail.status === "escalated" ? { status: "escalation", failedStep: "write_script", escalation: { artifactId: detail.attempts[0]?.id } } : null;
    expect(detail.finalResult).toEqual(expectedResult === null ? null : expect.objectContaining(expectedResult));
  });

  it("keeps the newest ledger entries only, says how many it left off, and still counts every model call", async () => {
    const runId = await executeRun([step("write", "g", ["x = 1"], [passed()])]);
    const notes = repository.calls(runId);
    for (let i = 0; i < LEDGER_ENTRY_LIMIT; i++) await notes.note(`note-${i}`, "assistant", `thinking ${i}`);

    const { ledger } = await getRunDetail(database.db, { id: runId });

    expect(ledger.entries).toHaveLength(LEDGER_ENTRY_LIMIT);
    expect(ledger.omitted).toBe(ledger.total - LEDGER_ENTRY_LIMIT);
    expect(ledger.omitted).toBeGreaterThan(0);
    expect(ledger.entries[0]?.seq).toBe(ledger.omitted + 1);
    expect(ledger.entries.at(-1)).toMatchObject({ seq: ledger.total, type: "text", payload: { text: `thinking ${LEDGER_ENTRY_LIMIT - 1}` } });
    // The model call is among the entries left off, and counted all the same.
    expect(ledger.entries.some((entry) => entry.type === "action_call")).toBe(false);
    expect(ledger.summary.modelCalls).toBe(1);
    expect(ledger.summary.countByType.text).toBe(LEDGER_ENTRY_LIMIT);
  });

  it("gives a queued run no attempts, no result and an empty ledger", async () => {
    const run = await repository.create({ specification: "later", workflowVersionId: versionId });

    const detail = await getRunDetail(database.db, { id: run.id });

    expect(detail).toMatchObject({ status: "queued", attempts: [], escalations: [], finalResult: null, startedAt: null });
    expect(detail.ledger).toEqual({ entries: [], total: 0, omitted: 0, summary: { countByType: {}, modelCalls: 0 } });
  });

  it("fails with NOT_FOUND naming an unknown id", async () => {
    const error = await getRunDetail(database.db, { id: "no-such-run" }).catch((caught: unknown) => caught);
    expect(isServiceError(error) && error.code).toBe("NOT_FOUND");
    expect((error as Error).message).toContain("no-such-run");
  });

  it("reaches the API as run.get, an unknown id as NOT_FOUND", async () => {
    const caller = createTestCaller(database.db);
    const run = await repository.create({ specification: "via the API", workflowVersionId: versionId });

    await expect(caller.run.get({ id: run.id })).resolves.toMatchObject({ id: run.id, specification: "via the API" });
    await expect(caller.run.get({ id: "no-such-run" })).rejects.toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining("no-such-run") });
    await expect(caller.run.get({ id: "  " })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("id") });
  });
});
