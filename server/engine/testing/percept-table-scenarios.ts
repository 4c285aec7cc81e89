/**
 * The percept-sequence tables of 000, replayed with a scripted generator against any
 * RunRepository. Each store's test file calls `describePerceptTables` with its own factory.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requiresGuards, always, type ActionPair } from "../domain/action-pair";
import { passed, failed, fatal } from "../domain/guard-result";
import { createPromptTemplate } from "../domain/prompt-template";
import { executeWorkflow } from "../agent/workflow";
import type { WorkflowStep } from "../agent/step";
import type { RunRepository } from "../run/run-repository";
import { ScriptedGenerator } from "./scripted-generator";
import { guardFrom } from "./scripted-guard";
import { perceptActions } from "./percept-actions";

export interface RepositoryHarness {
  readonly repository: RunRepository;
  dispose(): Promise<void>;
}

const template = createPromptTemplate({ role: "You are a careful Python engineer.", constraints: "Python 3.11", task: "Implement the specification." });

function step(name: string, guardId: string, actionPair: ActionPair, guardArtifactDeps: string[] = [], rmax?: number): WorkflowStep {
  return { name, guardId, actionPair, guardArtifactDeps, rmax, language: "python" };
}

export function describePerceptTables(storeName: string, openHarness: () => Promise<RepositoryHarness>): void {
  describe(`000 percept-sequence tables on ${storeName}`, () => {
    let harness: RepositoryHarness;
    beforeAll(async () => {
      harness = await openHarness();
    });
    afterAll(async () => harness?.dispose());

    async function run(specification: string, steps: WorkflowStep[], rmax = 3) {
      const repository = harness.repository;
      const record = await repository.create({ specification });
      const result = await executeWorkflow({
        steps,
        specification,
        rmax,
        dag: repository.dag(record.id),
        observer: repository.observer(record.id),
        calls: repository.calls(record.id),
      });
      const ledger = await repository.ledger(record.id);
      return { result, runId: record.id, ledger, actions: perceptActions(ledger), stored: await repository.get(record.id) };
    }

    it("1. happy path: the guard passes the first attempt and the state advances", async () => {
      const generator = new ScriptedGenerator(["class LRUCache: ..."]);
      const guard = guardFrom(() => passed());
      const { result, actions, stored, runId } = await run("Implement LRU Cache", [
        step("implement", "g_1", { precondition: always, generator, guard, template }),
      ]);

      expect(actions).toEqual(["QUERY-LLM", "EXECUTE-GUARD(a1, deps={})", "ADVANCE-STATE", "REPLY-TO-USER(a1)"]);
      expect(result.status).toBe("success");
      expect(result.artifacts.g_1?.content).toBe("class LRUCache: ...");
      expect(stored.status).toBe("succeeded");
      expect(stored.workflowState.guards).toEqual({ g_1: true });
      expect(stored.workflowState.artifactIds).toEqual({ g_1: result.artifacts.g_1?.id });
      expect(stored.attemptCount).toBe(1);
      expect(stored.finishedAt).not.toBeNull();
      const kept = await harness.repository.dag(runId).get(result.artifacts.g_1!.id);
      expect(kept.result).toEqual({ passed: true, fatal: false, feedback: "" });
    });

    it("2. refinement loop: attempt 1's feedback is in attempt 2's prompt, and the state holds until a pass", async () => {
      const generator = new ScriptedGenerator(["class LRUCache: put only", "class LRUCache with get"]);
      const guard = guardFrom((artifact) => (artifact.content.includes("get") ? passed() : failed("Missing get method")));
      const { result, actions, stored, runId, ledger } = await run("Implement LRU Cache", [
        step("implement", "g_1", { precondition: always, generator, guard, template }),
      ]);

      expect(actions).toEqual([
        "QUERY-LLM",
        "EXECUTE-GUARD(a1, deps={})",
        "REFINE-CONTEXT",
        "QUERY-LLM",
        "EXECUTE-GUARD(a2, deps={})",
        "ADVANCE-STATE",
        "REPLY-TO-USER(a2)",
      ]);
      expect(generator.prompts[0]).not.toContain("# HISTORY");
      expect(generator.prompts[1]).toContain("# HISTORY (Context Refinement)\n\n--- Attempt 1 ---\nGUARD REJECTION:\nMissing get method");
      expect(generator.requests[1]?.context.currentArtifact).toBe("class LRUCache: put only");
      // Definition 4: no state change was recorded before the passing verdict.
      const advances = ledger.filter((entry) => entry.type === "state.advanced");
      expect(advances).toHaveLength(1);
      expect(advances[0]?.payload.artifactId).toBe(result.artifacts.g_1?.id);
      expect(stored.attemptCount).toBe(2);
      const chain = await harness.repository.dag(runId).provenance(result.artifacts.g_1!.id);
      expect(chain.map((entry) => [entry.artifact.version, entry.result.passed, entry.result.feedback])).toEqual([
        [1, false, "Missing get method"],
        [2, true, ""],
      ]);
    });

    it("3. Rmax exhaustion: every attempt fails, the run fails with the full provenance", async () => {
      const generator = new ScriptedGenerator(["sum = 12", "sum = 14", "sum = 10"]);
      const feedbacks = ["Sum is 12, not prime", "Sum is 14, not prime", "Sum is 10, not prime"];
      let call = 0;
      const guard = guardFrom(() => failed(feedbacks[call++] ?? "unexpected call"));
      const { result, actions, stored, runId } = await run(
        "Implement prime validator",
        [step("validate", "g_1", { precondition: always, generator, guard, template })],
        2,
      );

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
      expect(generator.calls).toBe(3);
      expect(result.status).toBe("failed");
      if (result.status !== "failed") return;
      expect(result.failedStep).toBe("validate");
      expect(result.provenance.map((entry) => [entry.artifact?.content, entry.feedback])).toEqual([
        ["sum = 12", feedbacks[0]],
        ["sum = 14", feedbacks[1]],
        ["sum = 10", feedbacks[2]],
      ]);
      expect(generator.prompts[2]).toContain(`--- Attempt 2 ---\nGUARD REJECTION:\n${feedbacks[1]}`);
      expect(stored.status).toBe("failed");
      expect(stored.workflowState.guards).toEqual({});
      expect(stored.result?.provenance.map((entry) => entry.feedback)).toEqual(feedbacks);
      const lastId = result.provenance.at(-1)!.artifact!.id;
      expect((await harness.repository.dag(runId).provenance(lastId)).map((entry) => entry.artifact.content)).toEqual([
        "sum = 12",
        "sum = 14",
        "sum = 10",
      ]);
    });

    it("3.5 fatal escalation: the artifact is stored and no second generator call is made", async () => {
      const generator = new ScriptedGenerator(["import os; os.system('rm -rf /')", "never generated"]);
      const guard = guardFrom((artifact) => (artifact.content.includes("os.system") ? fatal("Security: os.system forbidden") : passed()));
      const { result, actions, stored, runId } = await run("Execute code in sandbox", [
        step("execute", "g_1", { precondition: always, generator, guard, template }),
      ]);

      expect(actions).toEqual(["QUERY-LLM", "EXECUTE-GUARD(a1, deps={})", "ESCALATE-TO-USER(a1, Security: os.system forbidden)"]);
      expect(generator.calls).toBe(1);
      expect(result.status).toBe("escalation");
      if (result.status !== "escalation") return;
      expect(result.escalationFeedback).toBe("Security: os.system forbidden");
      const kept = await harness.repository.dag(runId).get(result.escalationArtifact.id);
      expect(kept.artifact.content).toBe("import os; os.system('rm -rf /')");
      expect(kept.result).toEqual({ passed: false, fatal: true, feedback: "Security: os.system forbidden" });
      expect(stored.status).toBe("escalated");
      expect(stored.workflowState.guards).toEqual({});
      const escalations = await harness.repository.escalations(runId);
      expect(escalations).toMatchObject([
        { artifactId: result.escalationArtifact.id, stepName: "execute", guardId: "g_1", status: "pending", feedback: "Security: os.system forbidden" },
      ]);
    });

    it("4. TDD: the test artifact of step 1 reaches the guard of step 2, and nothing else does", async () => {
      const testWriter = new ScriptedGenerator(["def test_lru(): ..."]);
      const implementer = new ScriptedGenerator(["class LRUCache: pass", "class LRUCache: def get(self): ..."]);
      const testGuard = guardFrom((_artifact, deps) => (Object.keys(deps).length === 0 ? passed() : failed("unexpected dependencies")));
      const seen: Record<string, string>[] = [];
      const implGuard = guardFrom((artifact, deps) => {
        seen.push(Object.fromEntries(Object.entries(deps).map(([name, dep]) => [name, dep.content])));
        return artifact.content.includes("get") ? passed() : failed("test_get failed");
      });
      const { result, actions, stored, runId } = await run("Implement LRU Cache", [
        step("write_tests", "g_test", { precondition: always, generator: testWriter, guard: testGuard, template }),
        step("implement", "g_impl", { precondition: requiresGuards(["g_test"]), generator: implementer, guard: implGuard, template }, ["g_test"]),
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
      expect(seen).toEqual([{ test: "def test_lru(): ..." }, { test: "def test_lru(): ..." }]);
      expect(result.status).toBe("success");
      expect(stored.workflowState.guards).toEqual({ g_test: true, g_impl: true });
      const testId = result.artifacts.g_test!.id;
      const implEntry = await harness.repository.dag(runId).get(result.artifacts.g_impl!.id);
      expect(implEntry.dependencyIds).toEqual({ test: testId });
      expect((await harness.repository.dag(runId).get(testId)).dependencyIds).toEqual({});
    });
  });
}
