import { describe, expect, it } from "vitest";
import { MemoryCallLedger, runMachine } from "../../engine";
import { InMemoryArtifactDag } from "../../engine/testing/in-memory-artifact-dag";
import { MemoryJournal } from "../../engine/testing/memory-journal";
import { validateWorkflowDocument } from "../definition";
import { compileWorkflow } from "./compile-workflow";

// One step of each type, none of which can succeed, and only the workflow's defaults: each must
// make max_retries + 1 attempts, then do what default_on_failure says.
function document(defaults: string): string {
  return `name: defaults
language: javascript
${defaults}
state_machine:
  states: [thinking, computing, choosing, writing, done]
  initial_state: thinking
  final_states: [done]
  transitions:
    - { from: thinking, to: computing }
    - { from: computing, to: choosing }
    - { from: choosing, to: writing }
    - { from: writing, to: done }
steps:
  - { name: think, type: llm, in_state: thinking, prompt: "Think." }
  - { name: compute, type: code, in_state: computing, code: 'throw new Error("always")' }
  - { name: choose, type: transition, in_state: choosing, prompt: "yes or no?", transition_map: { "yes": done } }
  - { name: write, in_state: writing, guard_id: g_write, prompt: "Write.", guards: [{ kind: syntax }] }
`;
}

const CASSETTE = { think: ["", "", ""], choose: ["maybe", "maybe", "maybe"], write: ["const = ;", "const = ;", "const = ;"] };

async function run(defaults: string) {
  const validated = validateWorkflowDocument(document(defaults), "defaults.yaml");
  if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
  const machine = compileWorkflow(validated.definition, { generatorOverride: { kind: "replay", cassette: { steps: CASSETTE } } });
  const calls = new MemoryCallLedger();
  const journal = new MemoryJournal();
  const result = await runMachine(machine, { specification: "s", dag: new InMemoryArtifactDag(), calls, observer: journal });
  const attempts = (step: string) => calls.steps.filter((entry) => entry.type === "action_call" && entry.key?.startsWith(`${step}/`)).length;
  return { result, attempts, journal };
}

describe("default_on_failure and default_max_retries apply to every step type", () => {
  it("skip with 2 retries: three attempts each, then the run goes on; the skipped guard leaves the goal unmet", async () => {
    const { result, attempts, journal } = await run("default_on_failure: skip\ndefault_max_retries: 2");
    expect(["think", "choose", "write"].map(attempts)).toEqual([3, 3, 3]);
    expect(journal.events.filter((event) => event.type === "step.attempt_failed" && event.step === "compute")).toHaveLength(3);
    expect(result.path).toEqual(["thinking", "computing", "choosing", "writing", "done"]);
    expect(result.status).toBe("failed");
    if (result.status === "failed") expect(result.reason).toMatch(/^Goal not reached in final state "done": guard g_write/);
  });

  it("fail with 0 retries: the first step's single failed attempt ends the run naming it", async () => {
    const { result, attempts } = await run("default_on_failure: fail\ndefault_max_retries: 0");
    expect(attempts("think")).toBe(1);
    expect(result.status).toBe("failed");
    if (result.status === "failed") expect(result.failedStep).toBe("think");
  });
});
