/**
 * 000's five percept-sequence tables replayed from cassettes through executeWorkflow, judged by
 * real guards, on the in-memory repository and on PrismaRunRepository over SQLite.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { always, executeWorkflow, requiresGuards, type MemoryCallLedger, type RunRepository, type WorkflowStep } from "../../engine";
import { InMemoryRunRepository } from "../../engine/testing/in-memory-run-repository";
import { perceptActions } from "../../engine/testing/percept-actions";
import { createGuard } from "../../guards/registry";
import { PrismaRunRepository } from "../../persistence/prisma-run-repository";
import { createTestDatabase } from "../../persistence/testing/test-database";
import { parseCassette, type Cassette } from "./cassette";
import { createReplayGenerator } from "./replay-generator";
import { CASSETTES, LRU_TESTS, LRU_WITH_GET, OS_SYSTEM, PRIME_TESTS, primeValidator } from "./testing/percept-cassettes";

interface Harness {
  readonly repository: RunRepository;
  /** The replay calls the run's ledger holds, in order. */
  replayCalls(runId: string): Promise<unknown[]>;
  dispose(): Promise<void>;
}


const harnesses: [string, () => Promise<Harness>][] = [
  [
    "in memory",
    async () => {
      const repository = new InMemoryRunRepository();
      const replayCalls = async (runId: string) =>
        (repository.calls(runId) as MemoryCallLedger).steps.filter((step) => step.type === "action_call").map((step) => step.payload.payload);
      return { repository, replayCalls, dispose: async () => {} };
    },
  ],
  [
    "Prisma + SQLite",
    async () => {
      const database = await createTestDatabase("sqlite");
      const repository = new PrismaRunRepository(database.db);
      const replayCalls = async (runId: string) =>
        (await repository.ledger(runId)).filter((entry) => entry.type === "action_call").map((entry) => entry.payload.payload);
      return { repository, replayCalls, dispose: () => database.dispose() };
    },
  ],
];

const python = { language: "python" } as const;
const step = (name: string, guardId: string, guard: unknown, cassette: Cassette, slept: number[], deps: string[] = []): WorkflowStep => ({
  name,
  guardId,
  guardArtifactDeps: deps,
  language: "python",
  actionPair: {
    precondition: deps.length ? requiresGuards(deps) : always,
    generator: createReplayGenerator(cassette, { sleep: async (ms) => void slept.push(ms) }),
    guard: createGuard(guard, python),
  },
});

describe.each(harnesses)("000 percept tables replayed from cassettes (%s)", (_name, open) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await open();
  });
  afterAll(() => harness?.dispose());

  async function run(specification: string, steps: (slept: number[]) => WorkflowStep[], rmax = 3) {
    const { repository } = harness;
    const slept: number[] = [];
    const record = await repository.create({ specification });
    const result = await executeWorkflow({
      steps: steps(slept),
      specification,
      rmax,
      dag: repository.dag(record.id),
      observer: repository.observer(record.id),
      calls: repository.calls(record.id),
    });
    // The Prisma ledger interleaves generator calls with engine events; perceptActions reads past them.
    const events = await repository.ledger(record.id);
    return {
      result,
      slept,
      runId: record.id,
      actions: perceptActions(events),
      stored: await repository.get(record.id),
      dag: repository.dag(record.id),
      replayCalls: await harness.replayCalls(record.id),
    };
  }

  it("1. happy path: the recorded implementation passes its tests on the first attempt", async () => {
    const cassette = parseCassette(CASSETTES.happyPath);
    const { result, actions, stored, replayCalls } = await run("Implement LRU Cache", (slept) => [
      step("implement", "g_1", { kind: "test", test: LRU_TESTS }, cassette, slept),
    ]);
    expect(actions).toEqual(["QUERY-LLM", "EXECUTE-GUARD(a1, deps={})", "ADVANCE-STATE", "REPLY-TO-USER(a1)"]);
    expect(result.status).toBe("success");
    expect(result.artifacts.g_1?.content).toBe(LRU_WITH_GET);
    expect(stored).toMatchObject({ status: "succeeded", attemptCount: 1, workflowState: { guards: { g_1: true } } });
    expect(replayCalls).toEqual([{ step: "implement", attempt: 1 }]);
  });

  it("2. refinement loop: the missing get fails the tests, the second recording passes after its delay", async () => {
    const cassette = parseCassette(CASSETTES.refinement);
    const { result, actions, stored, dag, slept, replayCalls } = await run("Implement LRU Cache", (slept) => [
      step("implement", "g_1", { kind: "test", test: LRU_TESTS }, cassette, slept),
    ]);
    expect(actions).toEqual(["QUERY-LLM", "EXECUTE-GUARD(a1, deps={})", "REFINE-CONTEXT", "QUERY-LLM", "EXECUTE-GUARD(a2, deps={})", "ADVANCE-STATE", "REPLY-TO-USER(a2)"]);
    expect(result.status).toBe("success");
    expect(stored).toMatchObject({ status: "succeeded", attemptCount: 2 });
    expect(slept).toEqual([250]);
    const chain = await dag.provenance(result.artifacts.g_1!.id);
    expect(chain.map((entry) => entry.result.passed)).toEqual([false, true]);
    expect(chain[0]!.result.feedback).toMatch(/test_get: AttributeError: 'LRUCache' object has no attribute 'get'/);
    expect(replayCalls).toEqual([
      { step: "implement", attempt: 1 },
      { step: "implement", attempt: 2 },
    ]);
  });

  it("3. Rmax exhaustion: three recorded validators all fail, the run fails with the provenance", async () => {
    const cassette = parseCassette(CASSETTES.exhaustion);
    const { result, actions, stored } = await run("Implement prime validator", (slept) => [step("validate", "g_1", { kind: "test", test: PRIME_TESTS }, cassette, slept)], 2);
    expect(actions).toEqual([
      "QUERY-LLM",
      "EXECUTE-GUARD(a1, deps={})",
      "REFINE-CONTEXT",
      "QUERY-LLM",
      "EXECUTE-GUARD(a2, deps={})",
      "REFINE-CONTEXT",
      "QUERY-LLM",
      "EXECUTE-GUARD(a3, deps={})",
      "REPLY-TO-USER(failure, provenance)",
    ]);
    expect(result.status).toBe("failed");
    if (result.status !== "failed") return;
    expect(result.failedStep).toBe("validate");
    expect(result.provenance.map((entry) => entry.artifact?.content)).toEqual([primeValidator(0), primeValidator(2), primeValidator(-2)]);
    const sums = result.provenance.map((entry) => /Sum is (\d+), not prime/.exec(entry.feedback)?.[0]);
    expect(sums).toEqual(["Sum is 12, not prime", "Sum is 14, not prime", "Sum is 10, not prime"]);
    expect(stored).toMatchObject({ status: "failed", attemptCount: 3, workflowState: { guards: {} } });
  });

  it("3.5 fatal escalation: os.system is escalated at once, and the second recording is never asked for", async () => {
    const cassette = parseCassette(CASSETTES.fatal);
    const { result, actions, stored, runId, dag, replayCalls } = await run("Execute code in sandbox", (slept) => [
      step("execute", "g_1", { kind: "security" }, cassette, slept),
    ]);
    const feedback = "Security: os.system forbidden (line 1)";
    expect(actions).toEqual(["QUERY-LLM", "EXECUTE-GUARD(a1, deps={})", `ESCALATE-TO-USER(a1, ${feedback})`]);
    expect(result.status).toBe("escalation");
    if (result.status !== "escalation") return;
    expect(result.escalationFeedback).toBe(feedback);
    expect((await dag.get(result.escalationArtifact.id)).artifact.content).toBe(OS_SYSTEM);
    expect(stored).toMatchObject({ status: "escalated", attemptCount: 1 });
    expect(await harness.repository.escalations(runId)).toMatchObject([{ artifactId: result.escalationArtifact.id, stepName: "execute", status: "pending", feedback }]);
    expect(replayCalls).toEqual([{ step: "execute", attempt: 1 }]);
  });

  it("4. TDD: the recorded tests reach the implementation's guard, which fails test_get, then passes", async () => {
    const cassette = parseCassette(CASSETTES.tdd);
    const { result, actions, stored, dag } = await run("Implement LRU Cache", (slept) => [
      step("write_tests", "g_test", { kind: "syntax" }, cassette, slept),
      step("implement", "g_impl", { kind: "tdd" }, cassette, slept, ["g_test"]),
    ]);
    expect(actions).toEqual([
      "QUERY-LLM",
      "EXECUTE-GUARD(a1, deps={})",
      "ADVANCE-STATE",
      "QUERY-LLM",
      "EXECUTE-GUARD(a2, deps={test: a1})",
      "REFINE-CONTEXT",
      "QUERY-LLM",
      "EXECUTE-GUARD(a3, deps={test: a1})",
      "ADVANCE-STATE",
      "REPLY-TO-USER(a3)",
    ]);
    expect(result.status).toBe("success");
    expect(stored).toMatchObject({ status: "succeeded", attemptCount: 3, workflowState: { guards: { g_test: true, g_impl: true } } });
    const chain = await dag.provenance(result.artifacts.g_impl!.id);
    expect(chain[0]!.result.feedback).toContain("test_get");
    expect(chain.map((entry) => entry.dependencyIds)).toEqual([{ test: result.artifacts.g_test!.id }, { test: result.artifacts.g_test!.id }]);
  });

  it("a cassette shorter than the run fails the step with a reason naming it", async () => {
    const cassette = parseCassette({ steps: { implement: [primeValidator(0)] } });
    const { result, stored } = await run("Implement prime validator", (slept) => [step("implement", "g_1", { kind: "test", test: PRIME_TESTS }, cassette, slept)]);
    expect(result.status).toBe("failed");
    if (result.status !== "failed") return;
    expect(result.reason).toContain('Cassette exhausted for step "implement": asked for attempt 2, the cassette has 1 attempt');
    expect(result.provenance).toHaveLength(1);
    expect(stored.status).toBe("failed");
  });
});
