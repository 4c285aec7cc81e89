import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validateWorkflowDocument } from "@/server/workflows/definition";
import {
  addGuard,
  addState,
  addStep,
  addTransition,
  deleteState,
  deleteTransition,
  outline,
  removeGuard,
  renameState,
  setGenerator,
  setGuard,
  setInitial,
  setPromptPart,
  setTransitionCondition,
  stepOf,
  toggleFinal,
  updateStep,
} from "./definition-ops";
import { blankDocument, parseDraft, serializeDraft, workflowOf, type WorkflowDraft } from "./workflow-draft";

const tdd = readFileSync("examples/tdd-lru-cache.yaml", "utf8");

const withoutIndex = ({ index: _index, ...transition }: { index: number; from: string; to: string; condition?: string }) => transition;
const transitionsOf = (draft: WorkflowDraft) => outline(draft).transitions.map(withoutIndex);

function draftOf(text: string): WorkflowDraft {
  const parsed = parseDraft(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.draft;
}

describe("parse and serialise", () => {
  it("round-trips the TDD example to a valid document with the same definition", () => {
    const text = serializeDraft(draftOf(tdd));
    expect(text).toContain("states: [ writing_tests, implementing, done ]");
    const before = validateWorkflowDocument(tdd);
    const after = validateWorkflowDocument(text);
    expect(after.ok).toBe(true);
    if (before.ok && after.ok) expect(after.definition).toEqual(before.definition);
  });

  it("explains what does not parse", () => {
    expect(parseDraft("a: [")).toMatchObject({ ok: false, error: expect.stringContaining("does not parse") });
    expect(parseDraft("- a")).toEqual({ ok: false, error: "The document is not a mapping." });
    expect(parseDraft("workflow: 3")).toEqual({ ok: false, error: "`workflow:` is not a mapping." });
  });

  it("keeps a workflow written at the root at the root", () => {
    const draft = draftOf("name: flat\nstate_machine: { states: [a] }\nsteps: []\n");
    expect(serializeDraft(addState(draft).draft)).toMatch(/^name: flat\nstate_machine:\n {2}states: \[ a, state_1 \]/);
  });

  it("does not change the draft it is given", () => {
    const draft = draftOf(tdd);
    const before = serializeDraft(draft);
    deleteState(draft, "implementing");
    expect(serializeDraft(draft)).toBe(before);
  });
});

describe("states", () => {
  it("adds state_N with the first free N, and refuses a taken name", () => {
    let draft = draftOf(blankDocument("new"));
    draft = addState(draft).draft;
    const second = addState(draft);
    expect(second.name).toBe("state_2");
    expect(outline(second.draft).states).toEqual(["state_1", "state_2"]);
    expect(() => addState(second.draft, "state_1")).toThrow('state "state_1" already exists');
  });

  it("renames a state everywhere it is named", () => {
    const draft = renameState(setInitial(draftOf(tdd), "implementing"), "implementing", "coding");
    const machine = outline(draft);
    expect(machine.states).toEqual(["writing_tests", "coding", "done"]);
    expect(machine.initial).toBe("coding");
    expect(machine.transitions.map(withoutIndex).slice(0, 2)).toEqual([
      { from: "writing_tests", to: "coding", condition: "g_test" },
      { from: "coding", to: "done", condition: "g_impl" },
    ]);
    expect(stepOf(draft, "coding")?.name).toBe("implement");
    const final = outline(renameState(draftOf(tdd), "done", "finished"));
    expect(final.finals).toEqual(["finished"]);
  });

  it("refuses a rename to a taken, empty or wildcard name, or of an unknown state", () => {
    const draft = draftOf(tdd);
    expect(() => renameState(draft, "implementing", "done")).toThrow('state "done" already exists');
    expect(() => renameState(draft, "implementing", " ")).toThrow("a state needs a name");
    expect(() => renameState(draft, "implementing", "*")).toThrow('"*" means any state');
    expect(() => renameState(draft, "nowhere", "x")).toThrow('state "nowhere" does not exist');
  });

  it("deletes a state with its transitions and steps", () => {
    const machine = outline(deleteState(draftOf(tdd), "implementing"));
    expect(machine.states).toEqual(["writing_tests", "done"]);
    expect(machine.transitions.map(withoutIndex)).toEqual([{ from: "*", to: "writing_tests", condition: "should_restart" }]);
    expect(machine.steps.map((step) => step.name)).toEqual(["write_tests"]);
    const withoutInitial = outline(deleteState(draftOf(tdd), "writing_tests"));
    expect(withoutInitial.initial).toBe("");
  });

  it("sets the initial state and toggles final states", () => {
    let draft = setInitial(draftOf(tdd), "done");
    expect(outline(draft).initial).toBe("done");
    draft = toggleFinal(draft, "implementing");
    expect(outline(draft).finals).toEqual(["done", "implementing"]);
    expect(outline(toggleFinal(draft, "done")).finals).toEqual(["implementing"]);
  });
});

describe("transitions", () => {
  it("defaults the condition to the source step's guard id, else true", () => {
    let draft = draftOf(tdd);
    draft = addTransition(draft, "implementing", "writing_tests");
    draft = addTransition(draft, "done", "writing_tests");
    expect(transitionsOf(draft).slice(-2)).toEqual([
      { from: "implementing", to: "writing_tests", condition: "g_impl" },
      { from: "done", to: "writing_tests", condition: "true" },
    ]);
  });

  it("refuses unknown states and exact duplicates; allows from any state", () => {
    const draft = draftOf(tdd);
    expect(() => addTransition(draft, "writing_tests", "nowhere")).toThrow('state "nowhere" does not exist');
    expect(() => addTransition(draft, "writing_tests", "implementing")).toThrow('a transition from "writing_tests" to "implementing" when g_test already exists');
    expect(transitionsOf(addTransition(draft, "*", "done", "true")).at(-1)).toEqual({ from: "*", to: "done", condition: "true" });
  });

  it("sets or clears a condition and deletes a transition by index", () => {
    let draft = setTransitionCondition(draftOf(tdd), 0, "g_test and not should_restart");
    expect(transitionsOf(draft)[0]?.condition).toBe("g_test and not should_restart");
    draft = setTransitionCondition(draft, 0, "");
    expect(transitionsOf(draft)[0]).toEqual({ from: "writing_tests", to: "implementing" });
    draft = deleteTransition(draft, 0);
    expect(transitionsOf(draft)).toHaveLength(2);
    expect(() => deleteTransition(draft, 5)).toThrow("transition 6 does not exist");
  });
});

describe("steps", () => {
  it("adds an action pair that, with a machine around it, passes the check", () => {
    let draft = draftOf(blankDocument("designed"));
    draft = addState(draft, "drafting").draft;
    draft = addState(draft, "done").draft;
    const added = addStep(draft, "drafting");
    expect(added.name).toBe("drafting");
    draft = addTransition(added.draft, "drafting", "done");
    draft = toggleFinal(setInitial(draft, "drafting"), "done");
    expect(transitionsOf(draft)).toEqual([{ from: "drafting", to: "done", condition: "g_drafting" }]);
    const checked = validateWorkflowDocument(serializeDraft(draft));
    expect(checked.ok ? [] : checked.problems).toEqual([]);
  });

  it.each(["llm", "code", "transition"] as const)("adds a %s step that, with a machine around it, passes the check", (type) => {
    let draft = draftOf(blankDocument("designed"));
    draft = addState(draft, "drafting").draft;
    draft = addState(draft, "done").draft;
    draft = addStep(draft, "drafting", type).draft;
    draft = toggleFinal(setInitial(addTransition(draft, "drafting", "done"), "drafting"), "done");
    expect(stepOf(draft, "drafting")).toMatchObject({ name: "drafting", type });
    const checked = validateWorkflowDocument(serializeDraft(draft));
    expect(checked.ok ? [] : checked.problems).toEqual([]);
  });

  it("starts a code step with a comment in the workflow's language", () => {
    let draft = draftOf("name: p\nlanguage: python\nstate_machine: { states: [a], initial_state: a, final_states: [a] }\nsteps: []\n");
    draft = addStep(draft, "a", "code").draft;
    expect(String(stepOf(draft, "a")?.code)).toMatch(/^# /);
  });

  it("gives a second step of a state its own name and guard id", () => {
    const once = addStep(draftOf(tdd), "done");
    const twice = addStep(once.draft, "done");
    expect(twice.name).toBe("done_1");
    expect(outline(twice.draft).steps.at(-1)).toMatchObject({ name: "done_1", guard_id: "g_done_1", in_state: "done" });
  });

  it("updates fields, removes emptied ones, and refuses a taken step name", () => {
    let draft = updateStep(draftOf(tdd), "write_tests", { max_retries: 5, on_failure: "escalate", name: "tests" });
    expect(stepOf(draft, "writing_tests")).toMatchObject({ name: "tests", max_retries: 5, on_failure: "escalate" });
    draft = updateStep(draft, "tests", { max_retries: Number.NaN, on_failure: "" });
    expect(stepOf(draft, "writing_tests")).not.toHaveProperty("max_retries");
    expect(stepOf(draft, "writing_tests")).not.toHaveProperty("on_failure");
    expect(() => updateStep(draft, "tests", { name: "implement" })).toThrow('step "implement" already exists');
    expect(() => updateStep(draft, "ghost", {})).toThrow('step "ghost" does not exist');
  });

  it("renames a guard id in the conditions and dependencies that use it", () => {
    const draft = updateStep(draftOf(tdd), "write_tests", { guard_id: "g_tests" });
    expect(transitionsOf(draft)[0]?.condition).toBe("g_tests");
    expect(stepOf(draft, "implementing")?.guard_artifact_deps).toEqual(["g_tests"]);
    expect(() => updateStep(draft, "write_tests", { guard_id: "g_impl" })).toThrow('guard id "g_impl" is already used');
  });

  it("edits prompt parts and the generator", () => {
    let draft = setPromptPart(draftOf(tdd), "write_tests", "constraints", "pytest style");
    draft = setPromptPart(draft, "write_tests", "role", "");
    expect(stepOf(draft, "writing_tests")?.prompt).toEqual({ task: "Write tests for: {specification}", constraints: "pytest style" });
    draft = setGenerator(draft, "write_tests", { kind: "openai", model: "gpt-4o-mini", temperature: "" });
    expect(stepOf(draft, "writing_tests")?.generator).toEqual({ kind: "openai", model: "gpt-4o-mini" });
    const plain = draftOf("name: p\nstate_machine: { states: [a], initial_state: a, final_states: [a] }\nsteps:\n  - { name: s, in_state: a, prompt: Do it }\n");
    expect(stepOf(setPromptPart(plain, "s", "role", "You"), "a")?.prompt).toEqual({ task: "Do it", role: "You" });
  });

  it("adds, replaces and removes guards", () => {
    const starter = { schema: { type: "object" } };
    const withSchema = addGuard(draftOf(tdd), "write_tests", "json_schema", starter);
    expect(stepOf(withSchema, "writing_tests")?.guards).toEqual([{ kind: "syntax" }, { kind: "json_schema", schema: { type: "object" } }]);
    starter.schema.type = "array"; // the catalogue's starter is shared: the draft holds a copy
    expect(stepOf(withSchema, "writing_tests")?.guards).toEqual([{ kind: "syntax" }, { kind: "json_schema", schema: { type: "object" } }]);
    let draft = addGuard(draftOf(tdd), "write_tests", "human");
    draft = setGuard(draft, "write_tests", 1, "llm_judge", { criteria: "tests are small" });
    expect(stepOf(draft, "writing_tests")?.guards).toEqual([{ kind: "syntax" }, { kind: "llm_judge", criteria: "tests are small" }]);
    expect(() => setGuard(draft, "write_tests", 1, "human", { kind: "x" })).toThrow("options cannot set the kind");
    draft = removeGuard(draft, "write_tests", 0);
    expect(stepOf(draft, "writing_tests")?.guards).toEqual([{ kind: "llm_judge", criteria: "tests are small" }]);
    expect(() => removeGuard(draft, "write_tests", 3)).toThrow("guard 4 does not exist");
    expect(workflowOf(draft).name).toBe("tdd-lru-cache");
  });
});
