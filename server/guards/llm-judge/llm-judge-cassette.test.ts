import { describe, expect, it } from "vitest";
import { MemoryCallLedger, runMachine } from "../../engine";
import { InMemoryArtifactDag } from "../../engine/testing/in-memory-artifact-dag";
import { MemoryJournal } from "../../engine/testing/memory-journal";
import { parseCassette } from "../../generators/replay/cassette";
import { modelNeedsOf } from "../../models/model-needs";
import { validateWorkflowDocument } from "../../workflows/definition";
import { compileWorkflow } from "../../workflows/compile/compile-workflow";

// A judged step that may retry once. No endpoint is configured anywhere in these tests: a judge
// that tried to call a model could not even be built ("no model for the LLM judge").
const DOCUMENT = `
name: judged-offline
language: javascript
state_machine:
  states: [writing, done]
  initial_state: writing
  final_states: [done]
  transitions:
    - { from: writing, to: done, condition: g_write }
steps:
  - name: write
    in_state: writing
    guard_id: g_write
    generator: { kind: llm }
    prompt: "Write an add function"
    max_retries: 1
    guards:
      - { kind: syntax }
      - { kind: llm_judge, rubric: "The function must be named add." }
`;
const FIRST = "function sum(a, b) { return a + b; }";
const SECOND = "function add(a, b) { return a + b; }";

function definition() {
  const validated = validateWorkflowDocument(DOCUMENT, "judged-offline.yaml");
  if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
  return validated.definition;
}

async function replay(judges: unknown) {
  const cassette = { steps: { write: [FIRST, SECOND] }, judges };
  const machine = compileWorkflow(definition(), { generatorOverride: { kind: "replay", cassette } });
  const calls = new MemoryCallLedger();
  const result = await runMachine(machine, { specification: "add", dag: new InMemoryArtifactDag(), observer: new MemoryJournal(), calls, newId: (key) => `id:${key}` });
  return { result, calls };
}

describe("llm_judge guards of a replayed run answer from the cassette", () => {
  it("reads attempt N's verdict from judges[step][N - 1], through the ledger, with no model", async () => {
    const { result, calls } = await replay({ write: [{ passed: false, feedback: "Rename sum to add." }, { passed: true, feedback: "" }] });
    expect(result.status).toBe("success");
    const judged = calls.steps.filter((step) => step.type === "action_result" && step.key?.endsWith("/judge"));
    expect(judged.map((step) => step.key)).toEqual(["write/attempt-1/guard/2/judge", "write/attempt-2/guard/2/judge"]);
    expect(judged[0]?.payload).toMatchObject({ content: JSON.stringify({ passed: false, feedback: "Rename sum to add." }), model: "cassette" });
  });

  it("feeds a recorded failing verdict back like a live one", async () => {
    const { result } = await replay({ write: [{ passed: false, feedback: "Rename sum to add." }, { passed: false, feedback: "Still wrong." }] });
    if (result.status !== "failed") throw new Error(result.status);
    expect(result.provenance.map((attempt) => attempt.feedback)).toEqual([expect.stringContaining("Rename sum to add."), expect.stringContaining("Still wrong.")]);
  });

  it("a missing verdict fails the step at once, naming the entry to record (not the model's fault: no retry)", async () => {
    const { result, calls } = await replay({ write: [{ passed: false, feedback: "Rename sum to add." }] });
    if (result.status !== "failed") throw new Error(result.status);
    expect(result.reason).toContain('The replayed cassette has no llm_judge verdict for step "write", attempt 2 (judges.write[1])');
    // Attempt 2 was generated and stopped at its judge; nothing was recorded for that verdict.
    expect(calls.steps.filter((step) => step.key === "write/attempt-2/guard/2/judge")).toEqual([]);
  });

  it("a cassette without judges for a judged step fails its first verdict the same way", async () => {
    const { result } = await replay(undefined);
    if (result.status !== "failed") throw new Error(result.status);
    expect(result.reason).toContain('no llm_judge verdict for step "write", attempt 1');
  });

  it("a replayed run needs no model for its judges; a live one does", () => {
    expect(modelNeedsOf(definition(), { kind: "replay", cassette: { steps: {} } })).toEqual([]);
    expect(modelNeedsOf(definition()).map((need) => need.use)).toEqual(["generator", "llm_judge"]);
  });

  it.each([
    [{ write: [{ passed: "yes" }] }, "judges.write[0].passed: must be true or false"],
    [{ write: [] }, "judges.write: must list at least one verdict"],
    [{ write: [{ passed: true, feedback: "x".repeat(70_000) }] }, "judges.write[0].feedback: must be at most 65536 characters"],
    [{ write: [{ passed: true, extra: 1 }] }, "judges.write[0].extra: unknown field"],
  ])("names a malformed verdict's place (%#)", (judges, place) => {
    expect(() => parseCassette({ steps: { write: [FIRST] }, judges })).toThrow(place);
  });
});
