/* eslint-disable @typescript-eslint/no-explicit-any -- the malformed cases mutate a parsed document freely */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { formatProblem, toYaml } from "../../document";
import { validateWorkflowDocument } from "../validate-definition";
import type { ValidationResult } from "../types";
import { guardClassNames, pythonFields, seed004AgentYaml, seed004Examples, seedText } from "./testing/seed-examples";

/** Valid, or a failure that lists every problem. */
function valid(result: ValidationResult) {
  if (!result.ok) expect.fail(result.problems.map(formatProblem).join("\n"));
  return result;
}

const messages = (result: ValidationResult) => result.warnings.map((warning) => `${warning.path}: ${warning.message}`);

/** Export (what `dualstate export` writes) and validate again: nothing may change. */
function roundTrip(result: ValidationResult & { ok: true }) {
  const again = valid(validateWorkflowDocument(toYaml({ workflow: result.definition }), "exported.yaml"));
  expect(again.definition).toEqual(result.definition);
  return again;
}

describe("004's agent.yaml, merged from its fragments as the seed writes them", () => {
  const text = toYaml(seed004AgentYaml());
  const result = valid(validateWorkflowDocument(text, "agent.yaml", { fallbackName: "agent" }));

  it("validates, with the machine, variables and language the document relies on", () => {
    const { definition } = result;
    expect(definition.name).toBe("agent");
    expect(definition.state_machine.final_states).toEqual(["testing", "shipping"]);
    expect(definition.steps.map((step) => [step.name, step.type, step.in_state])).toEqual([
      ["observe", "llm", "observing"],
      ["compute_metrics", "code", "*"],
      ["strategic_reflect", "transition", "reflecting"],
    ]);
    // Set by compute_metrics, read by conditions, shown by observe's prompt: declared by use.
    expect(definition.context).toEqual({ success_rate: false, should_pivot: false, has_context: false, has_idea: false, balance: "" });
    expect(definition.language).toBe("python");
  });

  it("says in a warning each thing it inferred, and nothing about {agent_id}, a built-in", () => {
    const warnings = messages(result);
    expect(warnings).toEqual(
      expect.arrayContaining([
        "workflow: no name: the workflow is called \"agent\" (given where the document was loaded)",
        'workflow.state_machine: no final_states: inferred as "testing", "shipping" (the states with no way out of their own); reaching one ends the run',
        'workflow.steps[1]: no in_state: step "compute_metrics" runs in any state that has no step of its own (in_state: "*")',
        'workflow.steps[1].code: sets "should_pivot", which is not declared: declared by this use, false until a code step sets it',
        'workflow.state_machine.transitions[0].condition: reads "has_context", which nothing declares or sets: false unless the run sets it (--var has_context=…)',
        'workflow.steps[0].prompt: shows {balance}, which nothing declares or sets: empty text unless the run sets it (--var balance=…)',
        'workflow.state_machine.states[4]: state "reflecting" is unreachable from the initial state "observing"',
      ]),
    );
    expect(warnings.join("\n")).not.toContain("agent_id");
    expect(result.warnings.every((warning) => typeof warning.line === "number")).toBe(true);
  });

  it("exports in the canonical form and reads back unchanged", () => {
    const again = roundTrip(result);
    // Everything the seed left to inference is now written down.
    expect(messages(again).filter((warning) => !warning.includes("unreachable"))).toEqual([]);
  });

  it("keeps and ignores the other keys of an agent.yaml", () => {
    const withKeys = `id: builder\nenabled: yes\nllm_model: gpt-4\n${text}`;
    const named = valid(validateWorkflowDocument(withKeys, "agent.yaml"));
    expect(named.definition.name).toBe("builder");
    expect(messages(named)).toEqual(
      expect.arrayContaining(["id: agent.yaml key that Dualstate does not use: kept in the file, ignored", "llm_model: agent.yaml key that Dualstate does not use: kept in the file, ignored"]),
    );
  });
});

describe("each of 004's fragments on its own", () => {
  const examples = seed004Examples();
  it("the state machine alone: a machine with no steps that moves by its transitions", () => {
    const result = valid(validateWorkflowDocument(examples.stateMachine, "agent.yaml", { fallbackName: "agent" }));
    expect(result.definition.steps).toEqual([]);
    expect(messages(result)).toEqual(expect.arrayContaining(["workflow.steps: no steps: the machine moves by its transitions alone"]));
    // reflecting's three ways out are unconditional and no step chooses: only the first is ever taken.
    expect(messages(result).filter((warning) => warning.includes("ambiguous"))).toHaveLength(2);
    roundTrip(result);
  });

  it("the steps block alone: the states its steps name", () => {
    const result = valid(validateWorkflowDocument(examples.steps, "agent.yaml", { fallbackName: "agent" }));
    expect(result.definition.state_machine).toEqual({ states: ["observing", "ideating"], initial_state: "observing", final_states: ["ideating"], transitions: [] });
    roundTrip(result);
  });

  it("the code step and the transition step as step lists", () => {
    const code = valid(validateWorkflowDocument(toYaml({ steps: parse(examples.codeStep) }), "metrics.yaml", { fallbackName: "metrics" }));
    expect(code.definition.state_machine).toEqual({ states: ["compute_metrics", "done"], initial_state: "compute_metrics", final_states: ["done"], transitions: [] });
    expect(code.definition.steps[0]).toMatchObject({ type: "code", in_state: "compute_metrics", transition_to: "done" });
    expect(code.definition.language).toBe("python");
    roundTrip(code);
    const transition = valid(validateWorkflowDocument(toYaml({ steps: parse(examples.transitionStep) }), "reflect.yaml", { fallbackName: "reflect" }));
    expect(transition.definition.state_machine).toMatchObject({ initial_state: "reflecting", final_states: ["implementing", "observing", "shipping"] });
    roundTrip(transition);
  });

  it("the error handling block: a step without a prompt gets the specification, with a warning", () => {
    const result = valid(validateWorkflowDocument(examples.errorHandling, "agent.yaml", { fallbackName: "agent" }));
    expect(result.definition.steps[0]).toMatchObject({ name: "risky_step", type: "llm", on_failure: "skip", max_retries: 1, prompt: { task: "{specification}" } });
    expect(result.definition.default_max_retries).toBe(3);
    expect(messages(result)).toEqual(expect.arrayContaining(['workflow.steps[0]: no prompt: step "risky_step" gives the model the run\'s specification ({specification})']));
    roundTrip(result);
  });
});

describe("001's step list in its dict shape", () => {
  const text = seedText("001");
  const stepFields = pythonFields(text, "WorkflowStep");
  const pairFields = pythonFields(text, "ActionPair");
  const templateFields = pythonFields(text, "PromptTemplate");
  const workflowFields = pythonFields(text, "Workflow");
  const guards = guardClassNames(text);

  it("reads 001's field and class names as the seed defines them", () => {
    expect(stepFields).toEqual(["name", "action_pair", "guard_id", "guard_artifact_deps"]);
    expect(pairFields).toEqual(["precondition", "generator", "guard", "prompt_template"]);
    expect(templateFields).toEqual(["role", "constraints", "task", "feedback_wrapper"]);
    expect(workflowFields).toEqual(["steps", "artifact_dag", "rmax", "constraints"]);
    expect(guards).toEqual(["SyntaxGuard", "TestGuard", "TDDTestGuard"]);
  });

  /** A TDD workflow written with exactly 001's names: Workflow(steps, rmax, constraints). */
  function tddStepList(): Record<string, unknown> {
    const [name, actionPair, guardId, deps] = stepFields as [string, string, string, string];
    const [, generator, guard, promptTemplate] = pairFields as [string, string, string, string];
    const [role, constraints, task] = templateFields as [string, string, string];
    const [syntax, , tdd] = guards as [string, string, string];
    return {
      [workflowFields[2] as string]: 2,
      [workflowFields[3] as string]: "Standard library only.",
      [workflowFields[0] as string]: [
        { [name]: "write_tests", [guardId]: "g_test", [actionPair]: { [generator]: "llm", [guard]: syntax, [promptTemplate]: { [role]: "You write pytest tests.", [constraints]: "", [task]: "Write tests for {specification}" } } },
        { [name]: "implement", [guardId]: "g_impl", [deps]: ["g_test"], [actionPair]: { [generator]: "llm", [guard]: tdd, [promptTemplate]: { [role]: "You write Python.", [constraints]: "", [task]: "Make these tests pass:\n{test}" } } },
      ],
    };
  }

  it("validates as a sequential workflow of action pairs", () => {
    const result = valid(validateWorkflowDocument(JSON.stringify(tddStepList()), "tdd.json", { fallbackName: "tdd" }));
    const { definition } = result;
    expect(definition.state_machine).toEqual({ states: ["write_tests", "implement", "done"], initial_state: "write_tests", final_states: ["done"], transitions: [] });
    expect(definition.default_max_retries).toBe(2);
    expect(definition.language).toBe("python");
    expect(definition.steps.map((step) => [step.type, step.generator, step.guards, step.transition_to, step.max_retries])).toEqual([
      ["action_pair", { kind: "llm" }, [{ kind: "syntax" }], "implement", 2],
      ["action_pair", { kind: "llm" }, [{ kind: "tdd" }], "done", 2],
    ]);
    roundTrip(result);
  });

  it("points a problem inside 001's action_pair at the line the author wrote", () => {
    const list = tddStepList() as { steps: Record<string, Record<string, unknown>>[] };
    (list.steps[1] as Record<string, Record<string, unknown>>).action_pair!.guard = "SpellGuard";
    const text = JSON.stringify(list, null, 2);
    const result = validateWorkflowDocument(text, "tdd.json", { fallbackName: "tdd" });
    if (result.ok) expect.fail("an unknown guard must be refused");
    const line = text.split("\n").findIndex((row) => row.includes("SpellGuard")) + 1;
    expect(result.problems.map(formatProblem)).toEqual([expect.stringMatching(new RegExp(`^steps\\[1\\]\\.action_pair\\.guard\\.kind \\(line ${line}, column \\d+\\): "SpellGuard": must be one of syntax`))]);
  });

  it("reads 001's precondition as a condition over guard ids, and refuses one that names anything else", () => {
    const [precondition] = pairFields;
    const list = tddStepList() as { steps: Record<string, Record<string, unknown>>[] };
    list.steps[1]!.action_pair![precondition as string] = "g_test";
    expect(valid(validateWorkflowDocument(JSON.stringify(list), "tdd.json", { fallbackName: "tdd" })).definition.steps[1]?.precondition).toBe("g_test");
    list.steps[1]!.action_pair![precondition as string] = "g_test and ready";
    const result = validateWorkflowDocument(JSON.stringify(list), "tdd.json", { fallbackName: "tdd" });
    if (result.ok) expect.fail("a precondition naming a variable must be refused");
    expect(result.problems.map((problem) => `${problem.path}: ${problem.message}`)).toEqual([
      `steps[1].action_pair.precondition: precondition names "ready", which is not a guard id: a precondition reads only which guards are satisfied (001's WorkflowState)`,
    ]);
  });

  it("refuses a shorthand written beside its full field, naming both", () => {
    const list = tddStepList() as { steps: Record<string, unknown>[] };
    (list.steps[0] as Record<string, unknown>).guards = [{ kind: "syntax" }];
    (list.steps[0] as Record<string, unknown>).prompt = "twice";
    const result = validateWorkflowDocument(JSON.stringify(list), "tdd.json", { fallbackName: "tdd" });
    if (result.ok) expect.fail("a field given twice must be refused");
    expect(result.problems.map((problem) => `${problem.path}: ${problem.message}`)).toEqual([
      "steps[0].action_pair.guard: give guards (a list) or guard (one), not both",
      "steps[0].action_pair.prompt_template: give prompt or prompt_template (its 001 name), not both",
    ]);
  });
});

describe("malformed documents in 004's format are refused, each naming its actual problem", () => {
  type Agent = { workflow: Record<string, any> };
  const cases: [string, (agent: Agent) => void, string][] = [
    ["a transition to an undeclared state", (a) => a.workflow.state_machine.transitions.push({ from: "testing", to: "deploying" }), 'workflow.state_machine.transitions[7].to: "deploying" is not a declared state (state_machine.states)'],
    ["an initial state that is not declared", (a) => (a.workflow.state_machine.initial_state = "waking"), 'workflow.state_machine.initial_state: "waking" is not a declared state (state_machine.states)'],
    ["a step type that does not exist", (a) => (a.workflow.steps[0].type = "llm_call"), 'workflow.steps[0].type: "llm_call": must be one of llm, code, transition, action_pair'],
    ["an error policy that does not exist", (a) => (a.workflow.steps[0].on_failure = "ignore"), 'workflow.steps[0].on_failure: "ignore": must be one of retry, skip, fail, escalate'],
    ["a code step without code", (a) => delete a.workflow.steps[1].code, "workflow.steps[1].code: is required for a code step"],
    ["a transition step without a map", (a) => delete a.workflow.steps[2].transition_map, "workflow.steps[2].transition_map: is required for a transition step: map each answer to a state"],
    ["a transition map into an undeclared state", (a) => (a.workflow.steps[2].transition_map.retire = "retired"), 'workflow.steps[2].transition_map.retire: "retired" is not a declared state (state_machine.states)'],
    ["a condition that does not parse", (a) => (a.workflow.state_machine.transitions[0].condition = "has_context and"), "workflow.state_machine.transitions[0].condition: condition does not parse"],
    ["two steps with one name", (a) => (a.workflow.steps[2].name = "observe"), 'workflow.steps[2].name: duplicate step name "observe" (first at steps[0])'],
    ["an in_state list naming an undeclared state", (a) => (a.workflow.steps[0].in_state = ["observing", "dreaming"]), 'workflow.steps[0].in_state[1]: "dreaming" is not a declared state (state_machine.states)'],
    ["a misspelt step key", (a) => (a.workflow.steps[0].transition_too = "ideating"), "workflow.steps[0].transition_too: unknown key"],
    ["a misspelt workflow key", (a) => (a.workflow.default_on_failur = "skip"), "workflow.default_on_failur: unknown key"],
    ["max_retries out of range", (a) => (a.workflow.steps[0].max_retries = 50), "workflow.steps[0].max_retries: must be between 0 and 20"],
    ["llm step that escalates", (a) => (a.workflow.steps[0].on_failure = "escalate"), "workflow.steps[0].on_failure: a llm step cannot escalate"],
    ["a machine where every state has a way out", (a) => a.workflow.state_machine.transitions.push({ from: "testing", to: "reflecting" }, { from: "shipping", to: "observing" }), "workflow.state_machine: final_states is required here: every state has a way out"],
    ["a variable name that is a built-in", (a) => (a.workflow.context = { run_id: "x" }), 'workflow.context.run_id: "run_id" is provided by every run and cannot be declared'],
  ];
  it.each(cases)("%s", (_name, mutate, expected) => {
    const agent = seed004AgentYaml() as unknown as Agent;
    mutate(agent);
    const result = validateWorkflowDocument(toYaml(agent), "agent.yaml", { fallbackName: "agent" });
    if (result.ok) expect.fail(`accepted; warnings: ${messages(result).join("\n")}`);
    const found = result.problems.map((problem) => `${problem.path}: ${problem.message}`);
    expect(found.some((problem) => problem.startsWith(expected)), found.join("\n")).toBe(true);
  });
});

describe("inference stays bounded whatever the document", () => {
  it("refuses a document that relies on more than 500 undeclared variables, once", () => {
    const names = Array.from({ length: 5000 }, (_, i) => `v${i}`);
    const text = toYaml({ workflow: { name: "many", steps: [{ name: "a", prompt: names.map((name) => `{${name}}`).join(" ") }] } });
    const result = validateWorkflowDocument(text, "many.yaml");
    if (result.ok) expect.fail("5000 inferred variables must be refused");
    expect(result.problems.map((problem) => problem.message)).toEqual(["more than 500 variables are used without being declared: declare them under context:"]);
    // 500 inferences (and the others), listed up to the cap of 200 with a last line counting the rest.
    expect(result.warnings).toHaveLength(201);
    expect(result.warnings.at(-1)?.message).toMatch(/^and 30\d more warnings not shown$/);
  });
});
