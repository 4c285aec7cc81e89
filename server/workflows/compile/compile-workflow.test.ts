import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { composeContext, createArtifact, createPromptTemplate, MemoryCallLedger, runMachine } from "../../engine";
import { InMemoryArtifactDag } from "../../engine/testing/in-memory-artifact-dag";
import { ScriptedGenerator } from "../../engine/testing/scripted-generator";
import { validateWorkflowDocument } from "../definition";
import { MISSING_TDD_DEPENDENCY } from "../../guards/testing/test-guard";
import { compileWorkflow } from "./compile-workflow";
import { fillPromptVariables, withPromptVariables } from "./prompt-variables";

function fixture(name: string) {
  const path = fileURLToPath(new URL(`../definition/fixtures/${name}`, import.meta.url));
  const result = validateWorkflowDocument(readFileSync(path, "utf8"), path);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.definition;
}

const LRU_TESTS = "def test_get():\n    cache = LRUCache(1)\n    cache.put(1, 'one')\n    assert cache.get(1) == 'one'\n";
const LRU_WITHOUT_GET = "class LRUCache:\n    def __init__(self, capacity):\n        self.items = {}\n\n    def put(self, key, value):\n        self.items[key] = value\n";
const LRU_WITH_GET = `${LRU_WITHOUT_GET}\n    def get(self, key):\n        return self.items.get(key)\n`;

describe("compiling validated workflows into the engine's machine", () => {
  it("runs the TDD LRU cache offline: tests, a failing implementation, then a passing one", async () => {
    const machine = compileWorkflow(fixture("tdd-lru-cache.yaml"), {
      generatorOverride: { kind: "replay", cassette: { steps: { write_tests: [LRU_TESTS], implement: [LRU_WITHOUT_GET, LRU_WITH_GET] } } },
    });
    const result = await runMachine(machine, { specification: "Implement an LRU cache", dag: new InMemoryArtifactDag(), calls: new MemoryCallLedger() });
    expect(result.status).toBe("success");
    expect(result.finalState).toBe("done");
    expect(result.path).toEqual(["writing_tests", "implementing", "done"]);
    expect(result.artifacts.g_impl?.content).toBe(LRU_WITH_GET);
  });

  it("runs 004's machine with a code step and a transition step to its final state", async () => {
    const machine = compileWorkflow(fixture("agent-loop.yaml"), {
      generatorOverride: {
        kind: "replay",
        cassette: {
          steps: {
            ideate: ["A token bucket refilled on each call."],
            implement: ["function take(bucket) { return bucket.tokens > 0; }"],
            test: ["test('takes a token', () => expect(take({ tokens: 1 })).toBe(true));"],
            reflect: ["Ship"],
          },
        },
      },
    });
    const result = await runMachine(machine, { specification: "Implement a token-bucket rate limiter", dag: new InMemoryArtifactDag(), calls: new MemoryCallLedger() });
    expect(result.status).toBe("success");
    expect(result.path).toEqual(["observing", "ideating", "implementing", "testing", "reflecting", "shipping"]);
    expect(result.context).toMatchObject({ attempts: 1, has_context: true, should_pivot: false });
  });

  it("escalates at once when the security guard of an action pair finds os.system", async () => {
    const machine = compileWorkflow(fixture("tdd-lru-cache.yaml"), {
      generatorOverride: { kind: "replay", cassette: { steps: { write_tests: [LRU_TESTS], implement: ["import os\nos.system('rm -rf /tmp/x')\n"] } } },
    });
    const result = await runMachine(machine, { specification: "x", dag: new InMemoryArtifactDag(), calls: new MemoryCallLedger() });
    expect(result.status).toBe("escalation");
    if (result.status === "escalation") expect(result.escalationFeedback).toContain("Security: os.system forbidden (line 2)");
  });

  it("fails a tdd step without a test dependency at once, with the reason: one generation, no retry, not skipped, nothing fed back", async () => {
    // A definition that bypassed the validator (which reports this before any run).
    const valid = fixture("tdd-lru-cache.yaml");
    const definition = { ...valid, steps: valid.steps.map((step) => (step.name === "implement" ? { ...step, guard_artifact_deps: [], on_failure: "skip" as const } : step)) };
    const machine = compileWorkflow(definition, {
      generatorOverride: { kind: "replay", cassette: { steps: { write_tests: [LRU_TESTS], implement: [LRU_WITHOUT_GET, LRU_WITH_GET, LRU_WITH_GET] } } },
    });
    const calls = new MemoryCallLedger();
    const result = await runMachine(machine, { specification: "Implement an LRU cache", dag: new InMemoryArtifactDag(), calls });
    expect(result.status).toBe("failed");
    if (result.status !== "failed") return;
    expect(result.failedStep).toBe("implement");
    expect(result.reason).toBe(`Step "implement" cannot run as the workflow configures it: ${MISSING_TDD_DEPENDENCY}`);
    expect(calls.steps.filter((step) => step.type === "action_call" && step.key?.startsWith("implement/")).map((step) => step.key)).toEqual(["implement/attempt-1/replay"]);
  });

  it("names the field when a step has no model to call", () => {
    expect(() => compileWorkflow(fixture("tdd-lru-cache.yaml"), {})).toThrow(/steps\[1\]\.generator\.model: names no model, and endpoint "environment" has no default model/);
  });
});

describe("prompt variables", () => {
  it("fills known names, keeps literal braces, and leaves unknown names visible", () => {
    expect(fillPromptVariables("Write {specification} in {{json}}; see {missing}", { specification: "an LRU cache" })).toBe("Write an LRU cache in {json}; see {missing}");
  });

  it("fills the specification, constraints, context variables and dependency artifacts at generation time", async () => {
    const inner = new ScriptedGenerator(["ok"]);
    const generator = withPromptVariables(inner, { attempts: 2 });
    const template = createPromptTemplate({ role: "r", constraints: "{constraints}", task: "Implement {specification} against:\n{test}\n(attempt {attempts}, {g_test})", feedbackWrapper: "Fix: {feedback}" });
    const test = createArtifact({ id: "t", content: "def test_x(): pass", version: 1, parentId: null });
    await generator.generate({
      context: composeContext({ repository: new InMemoryArtifactDag(), constraints: "Python 3.11" }, "an LRU cache"),
      template,
      stepName: "implement",
      attempt: 1,
      calls: new MemoryCallLedger(),
      callKey: "implement/attempt-1",
      dependencies: { test },
    });
    expect(inner.prompts[0]).toContain("# CONSTRAINTS\nPython 3.11");
    expect(inner.prompts[0]).toContain("# TASK\nImplement an LRU cache against:\ndef test_x(): pass\n(attempt 2, def test_x(): pass)");
    expect(inner.requests[0]?.template?.feedbackWrapper).toBe("Fix: {feedback}");
  });
});
