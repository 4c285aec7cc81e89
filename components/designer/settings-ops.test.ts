import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validateWorkflowDocument } from "@/server/workflows/definition";
import { GUARD_LANGUAGES } from "@/server/guards/language";
import {
  addComponent,
  addVariable,
  convertDefault,
  deleteComponent,
  deleteVariable,
  readSettings,
  renameComponent,
  renameVariable,
  setComponentText,
  setDefaultMaxRetries,
  setDefaultOnFailure,
  setLanguage,
  setText,
  setVariableDefault,
  toggleComponentStep,
  WORKFLOW_LANGUAGES,
} from "./settings-ops";
import { parseDraft, serializeDraft, type WorkflowDraft } from "./workflow-draft";

const tdd = readFileSync("examples/tdd-lru-cache.yaml", "utf8");
/** A valid two-step workflow without context variables or components. */
const plain = [
  "workflow:",
  "  name: plain",
  "  state_machine: { states: [writing, checking, done], initial_state: writing, final_states: [done] }",
  "  steps:",
  "    - { name: write_tests, in_state: writing, prompt: Write tests, transition_to: checking }",
  "    - { name: implement, in_state: checking, prompt: Implement it, transition_to: done }",
  "",
].join("\n");

function draftOf(text: string): WorkflowDraft {
  const parsed = parseDraft(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.draft;
}

function definitionOf(draft: WorkflowDraft) {
  const result = validateWorkflowDocument(serializeDraft(draft));
  if (!result.ok) throw new Error(result.problems.map((problem) => `${problem.path}: ${problem.message}`).join("\n"));
  return result.definition;
}

describe("workflow settings edits", () => {
  it("offers exactly the languages the guards understand", () => {
    expect([...WORKFLOW_LANGUAGES].sort()).toEqual([...GUARD_LANGUAGES].sort());
  });

  it("reads the workflow-wide fields of the TDD example", () => {
    const settings = readSettings(draftOf(tdd));
    expect(settings).toMatchObject({ name: "tdd-lru-cache", language: "python", defaultOnFailure: "retry", texts: { constraints: "Python 3.11, standard library only" } });
    expect(settings.texts.specification).toMatch(/^Implement an LRU cache/);
  });

  it("sets and clears the texts, the language and the failure defaults, into a document that validates", () => {
    let draft = draftOf(tdd);
    draft = setText(draft, "description", "Cache, test first");
    draft = setText(draft, "constraints", "");
    draft = setLanguage(draft, "typescript");
    draft = setDefaultOnFailure(draft, "escalate");
    draft = setDefaultMaxRetries(draft, 5);
    const definition = definitionOf(draft);
    expect(definition).toMatchObject({ description: "Cache, test first", language: "typescript", default_on_failure: "escalate", default_max_retries: 5 });
    expect(definition.constraints).toBeUndefined();
    expect(definitionOf(setDefaultMaxRetries(setDefaultOnFailure(draft, ""), null))).toMatchObject({ default_on_failure: "retry", default_max_retries: 3 });
  });

  it("refuses a language, policy or retry count the format does not have", () => {
    const draft = draftOf(tdd);
    expect(() => setLanguage(draft, "cobol")).toThrow('"cobol" is not a language workflows support (javascript, typescript, python)');
    expect(() => setDefaultOnFailure(draft, "ignore")).toThrow(/not a failure policy/);
    expect(() => setDefaultMaxRetries(draft, 21)).toThrow("default retries must be a whole number from 0 to 20");
    expect(() => setDefaultMaxRetries(draft, 1.5)).toThrow(/whole number/);
  });

  it("adds, renames, retypes and deletes context variables, keeping their order", () => {
    let draft = draftOf(plain);
    const first = addVariable(draft);
    expect(first.name).toBe("var_1");
    const second = addVariable(first.draft);
    expect(second.name).toBe("var_2");
    draft = renameVariable(second.draft, "var_1", "attempts_allowed");
    draft = setVariableDefault(draft, "attempts_allowed", 3);
    draft = setVariableDefault(draft, "var_2", true);
    expect(readSettings(draft).context).toEqual([
      ["attempts_allowed", 3],
      ["var_2", true],
    ]);
    expect(definitionOf(draft).context).toEqual({ attempts_allowed: 3, var_2: true });
    draft = deleteVariable(deleteVariable(draft, "var_2"), "attempts_allowed");
    expect(serializeDraft(draft)).not.toMatch(/context:/);
  });

  it.each([
    ["1st", /not a variable name/],
    ["has space", /not a variable name/],
    ["a-b", /not a variable name/],
    ["specification", /is a workflow field/],
    ["constraints", /is a workflow field/],
    ["", /not a variable name/],
  ])("refuses the variable name %j", (name, message) => {
    const { draft } = addVariable(draftOf(tdd));
    expect(() => renameVariable(draft, "var_1", name)).toThrow(message);
  });

  it("refuses a duplicate variable name and a default that is not a finite number", () => {
    const { draft } = addVariable(addVariable(draftOf(tdd)).draft);
    expect(() => renameVariable(draft, "var_1", "var_2")).toThrow('context variable "var_2" already exists');
    expect(() => setVariableDefault(draft, "var_1", Number.NaN)).toThrow(/finite number/);
    expect(() => setVariableDefault(draft, "missing", 1)).toThrow(/does not exist/);
  });

  it("converts a default between types, keeping what can be kept", () => {
    expect(convertDefault("12", "number")).toBe(12);
    expect(convertDefault("twelve", "number")).toBe(0);
    expect(convertDefault(12, "text")).toBe("12");
    expect(convertDefault("true", "boolean")).toBe(true);
    expect(convertDefault(0, "boolean")).toBe(false);
  });

  it("adds components, injects them into steps, and removes them, into a document that validates", () => {
    let draft = addComponent(addComponent(draftOf(plain)));
    draft = renameComponent(draft, 0, "house_style");
    draft = setComponentText(draft, 0, "Use type hints.");
    draft = toggleComponentStep(draft, 0, "write_tests");
    draft = toggleComponentStep(draft, 0, "implement");
    draft = toggleComponentStep(draft, 0, "write_tests");
    expect(() => renameComponent(draft, 1, "house_style")).toThrow('component "house_style" already exists');
    draft = deleteComponent(draft, 1);
    expect(definitionOf(draft).components).toEqual([{ name: "house_style", text: "Use type hints.", inject_into: ["implement"] }]);
    expect(serializeDraft(deleteComponent(draft, 0))).not.toMatch(/components:/);
  });
});
