/**
 * The contract every RunRepository (and its ArtifactDag) must keep. The in-memory store, SQLite
 * and PostgreSQL run this same suite, so the reference and the databases cannot drift apart.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArtifact, type Artifact } from "../domain/artifact";
import { failed, fatal, passed } from "../domain/guard-result";
import { isEngineError } from "../errors";
import type { StoredArtifact } from "../ports/artifact-dag";
import type { RepositoryHarness } from "./percept-table-scenarios";

let counter = 0;
function artifact(content: string, version = 1, parentId: string | null = null): Artifact {
  counter += 1;
  return createArtifact({ id: `conformance-${Date.now()}-${counter}`, content, version, parentId });
}

function entry(a: Artifact, overrides: Partial<StoredArtifact> = {}): StoredArtifact {
  return { artifact: a, stepName: "implement", stepKind: "action_pair", guardId: "g_impl", result: passed(), dependencyIds: {}, language: "python", ...overrides };
}

async function expectEngineError(promise: Promise<unknown>, code: Parameters<typeof isEngineError>[1]) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isEngineError(error, code), `expected ${code}, got ${String(error)}`).toBe(true);
}

export function describeRunRepositoryConformance(storeName: string, openHarness: () => Promise<RepositoryHarness>): void {
  describe(`RunRepository conformance: ${storeName}`, () => {
    let harness: RepositoryHarness;
    beforeAll(async () => {
      harness = await openHarness();
    });
    afterAll(async () => harness?.dispose());

    it("creates a queued run with an empty workflow state and reads it back", async () => {
      const created = await harness.repository.create({ specification: "Implement an LRU cache — ünïcødé ✓" });
      expect(created).toMatchObject({
        status: "queued",
        specification: "Implement an LRU cache — ünïcødé ✓",
        workflowState: { guards: {}, artifactIds: {} },
        currentStep: null,
        attemptCount: 0,
        stepsCompleted: 0,
        result: null,
        startedAt: null,
        finishedAt: null,
        workflowVersionId: null,
      });
      expect(await harness.repository.get(created.id)).toEqual(created);
    });

    it("reports an unknown run as RUN_NOT_FOUND everywhere", async () => {
      await expectEngineError(harness.repository.get("no-such-run"), "RUN_NOT_FOUND");
      await expectEngineError(harness.repository.ledger("no-such-run"), "RUN_NOT_FOUND");
      await expectEngineError(harness.repository.escalations("no-such-run"), "RUN_NOT_FOUND");
      await expectEngineError(harness.repository.observer("no-such-run").record({ type: "run.started", specification: "x" }), "RUN_NOT_FOUND");
    });

    it("stores an artifact with its verdict and dependencies exactly as given", async () => {
      const run = await harness.repository.create({ specification: "spec" });
      const dag = harness.repository.dag(run.id);
      const test = artifact("def test_get():\n    assert cache.get(1) == 1\n");
      await dag.store(entry(test, { stepName: "write_tests", guardId: "g_test" }));
      const impl = artifact("class LRUCache:\n\tpass  # tab, ünïcødé, 🚀, \"quotes\", 'single', \\backslash\n");
      const stored = entry(impl, { result: failed("test_get failed: AssertionError"), dependencyIds: { test: test.id } });
      await dag.store(stored);

      const read = await dag.get(impl.id);
      expect(read).toEqual(stored);
      expect(read.artifact.contentHash).toBe(impl.contentHash);
      expect((await dag.get(test.id)).dependencyIds).toEqual({});
    });

    it("keeps the type of step that made an artifact: an llm answer, a code step's variables, a transition's choice", async () => {
      const run = await harness.repository.create({ specification: "spec" });
      const dag = harness.repository.dag(run.id);
      for (const stepKind of ["llm", "code", "transition"] as const) {
        const output = artifact(`${stepKind} output`);
        const stored = entry(output, { stepName: `a_${stepKind}_step`, stepKind, guardId: "", language: null });
        await dag.store(stored);
        expect(await dag.get(output.id)).toEqual(stored);
      }
    });

    it("keeps fatal verdicts distinct from plain failures", async () => {
      const run = await harness.repository.create({ specification: "spec" });
      const dag = harness.repository.dag(run.id);
      const dangerous = artifact("import os; os.system('ls')");
      await dag.store(entry(dangerous, { result: fatal("Security: os.system forbidden") }));
      expect((await dag.get(dangerous.id)).result).toEqual({ passed: false, fatal: true, feedback: "Security: os.system forbidden" });
    });

    it("refuses to store an artifact id twice and keeps the original", async () => {
      const run = await harness.repository.create({ specification: "spec" });
      const dag = harness.repository.dag(run.id);
      const original = artifact("original");
      await dag.store(entry(original));
      await expectEngineError(dag.store(entry({ ...original, content: "tampered" })), "ARTIFACT_EXISTS");
      expect((await dag.get(original.id)).artifact.content).toBe("original");
    });

    it("reports unknown artifacts, and artifacts of other runs, as ARTIFACT_NOT_FOUND", async () => {
      const runA = await harness.repository.create({ specification: "a" });
      const runB = await harness.repository.create({ specification: "b" });
      const onlyInA = artifact("a's artifact");
      await harness.repository.dag(runA.id).store(entry(onlyInA));
      await expectEngineError(harness.repository.dag(runA.id).get("no-such-artifact"), "ARTIFACT_NOT_FOUND");
      await expectEngineError(harness.repository.dag(runB.id).get(onlyInA.id), "ARTIFACT_NOT_FOUND");
    });

    it("returns the provenance chain oldest first, ending with the artifact", async () => {
      const run = await harness.repository.create({ specification: "spec" });
      const dag = harness.repository.dag(run.id);
      const first = artifact("attempt 1", 1);
      const second = artifact("attempt 2", 2, first.id);
      const third = artifact("attempt 3", 3, second.id);
      await dag.store(entry(first, { result: failed("one") }));
      await dag.store(entry(second, { result: failed("two") }));
      await dag.store(entry(third));
      expect((await dag.provenance(third.id)).map((e) => [e.artifact.content, e.result.feedback])).toEqual([
        ["attempt 1", "one"],
        ["attempt 2", "two"],
        ["attempt 3", ""],
      ]);
      expect((await dag.provenance(first.id)).map((e) => e.artifact.id)).toEqual([first.id]);
      await expectEngineError(dag.provenance("no-such-artifact"), "ARTIFACT_NOT_FOUND");
    });

    it("appends engine events to the ledger with gapless sequence numbers and applies them to the run", async () => {
      const run = await harness.repository.create({ specification: "spec" });
      const other = await harness.repository.create({ specification: "other" });
      const observer = harness.repository.observer(run.id);
      const a1 = artifact("attempt");
      await harness.repository.dag(run.id).store(entry(a1));
      await observer.record({ type: "run.started", specification: "spec" });
      await harness.repository.observer(other.id).record({ type: "run.started", specification: "other" });
      await observer.record({ type: "step.started", step: "implement", guardId: "g_impl", dependencyIds: {} });
      await observer.record({ type: "generator.completed", step: "implement", attempt: 1, artifactId: a1.id, contentHash: a1.contentHash, metadata: { model: "m", tokens: 12 } });
      await observer.record({ type: "guard.completed", step: "implement", attempt: 1, artifactId: a1.id, result: passed() });
      const state = { guards: { g_impl: true }, artifactIds: { g_impl: a1.id } };
      await observer.record({ type: "state.advanced", step: "implement", guardId: "g_impl", artifactId: a1.id, workflowState: state });

      const ledger = await harness.repository.ledger(run.id);
      expect(ledger.map((e) => [e.seq, e.actor, e.type])).toEqual([
        [1, "engine", "run.started"],
        [2, "engine", "step.started"],
        [3, "generator", "generator.completed"],
        [4, "guard", "guard.completed"],
        [5, "engine", "state.advanced"],
      ]);
      expect(ledger[2]?.payload).toEqual({ step: "implement", attempt: 1, artifactId: a1.id, contentHash: a1.contentHash, metadata: { model: "m", tokens: 12 } });
      expect((await harness.repository.ledger(other.id)).map((e) => e.seq)).toEqual([1]);

      const updated = await harness.repository.get(run.id);
      expect(updated).toMatchObject({ status: "running", currentStep: "implement", attemptCount: 1, stepsCompleted: 1, workflowState: state });
      expect(updated.startedAt).toBeInstanceOf(Date);
    });

    it("records the final result and opens a pending escalation on a fatal verdict", async () => {
      const run = await harness.repository.create({ specification: "spec" });
      const observer = harness.repository.observer(run.id);
      const dangerous = artifact("os.system('x')");
      await harness.repository.dag(run.id).store(entry(dangerous, { result: fatal("Security: os.system forbidden") }));
      await observer.record({ type: "step.escalated", step: "implement", guardId: "g_impl", artifactId: dangerous.id, feedback: "Security: os.system forbidden" });
      await observer.record({
        type: "run.finished",
        result: { status: "escalation", artifacts: {}, failedStep: "implement", escalationArtifact: dangerous, escalationFeedback: "Security: os.system forbidden" },
      });

      const finished = await harness.repository.get(run.id);
      expect(finished.status).toBe("escalated");
      expect(finished.finishedAt).toBeInstanceOf(Date);
      expect(finished.result).toEqual({
        status: "escalation",
        artifactIds: {},
        failedStep: "implement",
        reason: "Security: os.system forbidden",
        provenance: [],
        escalation: { artifactId: dangerous.id, feedback: "Security: os.system forbidden" },
      });
      expect(await harness.repository.escalations(run.id)).toMatchObject([
        { runId: run.id, artifactId: dangerous.id, stepName: "implement", guardId: "g_impl", status: "pending", feedback: "Security: os.system forbidden" },
      ]);
    });
  });
}
