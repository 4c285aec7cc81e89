/* eslint-disable @typescript-eslint/no-explicit-any -- the cases mutate a parsed document freely */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatProblem, loadWorkflowDocument } from "../document";
import { validateWorkflowDocument } from "./validate-definition";

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");

/** The example as a plain object, to mutate per case. */
function tdd(): Record<string, any> {
  const loaded = loadWorkflowDocument(fixture("tdd-lru-cache.yaml"));
  if (!loaded.ok) throw new Error("fixture does not load");
  return structuredClone((loaded.value as { workflow: Record<string, any> }).workflow);
}

function problems(text: string): string[] {
  const result = validateWorkflowDocument(text);
  if (result.ok) expect.fail("expected problems");
  return result.problems.map(formatProblem);
}

/** The warnings of a document that may or may not be valid, as `path (line, column): message` lines. */
function warnings(text: string): string[] {
  return validateWorkflowDocument(text).warnings.map(formatProblem);
}

/** Like problemsAfter, for the warnings of the mutated example. */
function warningsAfter(mutate: (workflow: Record<string, any>) => void): string[] {
  const workflow = tdd();
  mutate(workflow);
  return warnings(JSON.stringify({ workflow }, null, 2)).map((line) => line.replace(/ \(line \d+, column \d+\)/, ""));
}

/** Mutates the example, writes it as JSON (so lines are known), returns `path: message` lines. */
function problemsAfter(mutate: (workflow: Record<string, any>) => void): string[] {
  const workflow = tdd();
  mutate(workflow);
  return problems(JSON.stringify({ workflow }, null, 2)).map((line) => line.replace(/ \(line \d+, column \d+\)/, ""));
}

describe("valid documents", () => {
  it("accepts issue 5's tdd-lru-cache and normalises it", () => {
    const result = validateWorkflowDocument(fixture("tdd-lru-cache.yaml"), "tdd-lru-cache.yaml");
    if (!result.ok) expect.fail(result.problems.map(formatProblem).join("\n"));
    const [tests, implement] = result.definition.steps;
    expect(tests).toMatchObject({ type: "action_pair", max_retries: 2, on_failure: "fail", generator: { kind: "openai", model: "gpt-4o-mini" } });
    expect(implement).toMatchObject({ prompt: { task: "Implement {specification} so that the tests pass." }, max_retries: 3, on_failure: "retry", guard_artifact_deps: ["g_test"] });
    expect(result.definition.language).toBe("python");
  });

  it("accepts 004's agent loop with a code step and a transition step", () => {
    const result = validateWorkflowDocument(fixture("agent-loop.yaml"));
    if (!result.ok) expect.fail(result.problems.map(formatProblem).join("\n"));
    const byName = Object.fromEntries(result.definition.steps.map((step) => [step.name, step]));
    expect(byName.observe).toMatchObject({ type: "code", language: "javascript" });
    expect(byName.implement).toMatchObject({ type: "action_pair", max_retries: 3 });
    expect(byName).not.toHaveProperty("implement.rmax");
    expect(byName.reflect?.transition_map).toEqual({ continue: "implementing", pivot: "observing", ship: "shipping" });
    expect(result.definition.state_machine.states).toHaveLength(6);
  });

  it("accepts the workflow at the root and defaults type, language, retries", () => {
    const workflow = tdd();
    delete workflow.steps[0].type;
    delete workflow.language;
    workflow.steps[1].language = "py";
    const result = validateWorkflowDocument(JSON.stringify(workflow));
    if (!result.ok) expect.fail(result.problems.map(formatProblem).join("\n"));
    expect(result.definition.steps[0]?.type).toBe("action_pair");
    expect(result.definition.language).toBe("javascript");
    expect(result.definition.steps[1]?.language).toBe("python");
  });
});

describe("loader problems pass through", () => {
  it("reports syntax errors with line and column", () => {
    expect(problems("workflow:\n  name: [unclosed\n")[0]).toMatch(/^document \(line \d+, column \d+\): /);
  });
  it("reports duplicate keys", () => {
    expect(problems("workflow:\n  name: a\n  name: b\n").join("\n")).toMatch(/^workflow \(line 3, column 3\): duplicate key "name"/);
  });
});

describe("shape", () => {
  it("reports unknown keys at the key, with line and column", () => {
    const text = fixture("tdd-lru-cache.yaml").replace("      max_retries: 2\n", "      max_retries: 2\n      retries: 5\n");
    expect(problems(text)).toEqual(["workflow.steps[0].retries (line 31, column 16): unknown key"]);
  });
  it("keeps and ignores other agent.yaml keys beside workflow:, with a warning each", () => {
    const text = `tools: []\n${fixture("tdd-lru-cache.yaml")}`;
    expect(validateWorkflowDocument(text).ok).toBe(true);
    expect(warnings(text)).toEqual(["tools (line 1, column 8): agent.yaml key that Dualstate does not use: kept in the file, ignored"]);
  });
  it("reports unknown step types", () => {
    expect(problemsAfter((w) => (w.steps[0].type = "agentic"))).toEqual(['workflow.steps[0].type: "agentic": must be one of llm, code, transition, action_pair']);
  });
  it("reports unknown guard kinds and bad guard options at their path", () => {
    expect(problemsAfter((w) => (w.steps[1].guards[1] = { kind: "magic" }))).toEqual(['workflow.steps[1].guards[1].kind: "magic": must be one of syntax, test, tdd, security, json_schema, llm_judge, human, all_of, any_of']);
    expect(problemsAfter((w) => (w.steps[1].guards[0] = { kind: "security", allow: [] }))).toEqual(["workflow.steps[1].guards[0]: Unrecognized key: \"allow\""]);
  });
  it("reports unknown generator kinds", () => {
    expect(problemsAfter((w) => (w.steps[0].generator = { kind: "gpt" }))).toEqual(['workflow.steps[0].generator.kind: "gpt": must be one of openai, llm, agent, replay']);
  });
  it("reports a missing initial state", () => {
    expect(problemsAfter((w) => delete w.state_machine.initial_state)).toEqual(["workflow.state_machine.initial_state: is required"]);
  });
  it.each([
    [-1, "must be between 0 and 20"],
    [21, "must be between 0 and 20"],
    [1.5, "must be a whole number"],
  ])("rejects retry count %s", (count, message) => {
    expect(problemsAfter((w) => (w.steps[0].max_retries = count))).toEqual([`workflow.steps[0].max_retries: ${message}`]);
    expect(problemsAfter((w) => (w.default_max_retries = count))).toEqual([`workflow.default_max_retries: ${message}`]);
  });
  it("accepts rmax as the alias of max_retries, but not both", () => {
    expect(problemsAfter((w) => (w.steps[0].rmax = 2))).toEqual(["workflow.steps[0].rmax: rmax is an alias of max_retries: write only one"]);
    expect(problemsAfter((w) => (w.steps[0].rmax = 25))).toEqual(["workflow.steps[0].rmax: must be between 0 and 20"]);
  });
  it("checks the counts of states and steps before anything else", () => {
    const states = Array.from({ length: 501 }, (_, i) => `s${i}`);
    expect(problemsAfter((w) => ((w.state_machine.states = states), (w.bogus = 1)))).toEqual(["workflow.state_machine.states: has 501 states; the limit is 500"]);
    expect(problemsAfter((w) => (w.steps = Array.from({ length: 1001 }, () => w.steps[0])))).toEqual(["workflow.steps: has 1001 steps; the limit is 1000"]);
  });
});

describe("states", () => {
  it("reports transitions, steps and final states naming unknown states", () => {
    expect(
      problemsAfter((w) => {
        w.state_machine.transitions[0].to = "implementin";
        w.state_machine.final_states = ["finished"];
        w.steps[0].in_state = "writing";
      }),
    ).toEqual(
      expect.arrayContaining([
        'workflow.state_machine.final_states[0]: "finished" is not a declared state (state_machine.states)',
        'workflow.state_machine.transitions[0].to: "implementin" is not a declared state (state_machine.states)',
        'workflow.steps[0].in_state: "writing" is not a declared state (state_machine.states)',
      ]),
    );
  });
  it("reports states with no path to a final state, and warns of unreachable ones", () => {
    // A state that can never be entered never runs: the document stays valid, with a warning.
    expect(warningsAfter((w) => w.state_machine.states.push("limbo"))).toEqual([
      'workflow.state_machine.states[3]: state "limbo" is unreachable from the initial state "writing_tests"',
    ]);
    const trapped = problemsAfter((w) => {
      w.state_machine.transitions.pop(); // the "*" restart would lead out of any state
      w.state_machine.states.push("limbo");
      w.state_machine.transitions.push({ from: "writing_tests", to: "limbo" });
    });
    expect(trapped).toEqual(['workflow.state_machine.states[3]: state "limbo" has no path to a final state (done)']);
  });
  it("counts wildcard transitions and transition_to as edges", () => {
    const workflow = tdd();
    workflow.state_machine.states.push("limbo");
    workflow.state_machine.transitions.push({ from: "*", to: "limbo" });
    expect(validateWorkflowDocument(JSON.stringify(workflow)).ok).toBe(true);
    workflow.state_machine.states.pop();
    workflow.state_machine.transitions = [{ from: "*", to: "writing_tests" }];
    workflow.steps[0].transition_to = "implementing";
    workflow.steps[1].transition_to = "done";
    workflow.steps[1].run_if = "g_test";
    expect(validateWorkflowDocument(JSON.stringify(workflow))).toMatchObject({ ok: true });
  });
  it("warns of a transition that can never be taken after an unconditional one from the same state", () => {
    const ambiguous = 'workflow.state_machine.transitions[2]: ambiguous: state "writing_tests" already leaves without a condition at transitions[1] (to "implementing"), so this transition to "done" is never taken; give the earlier one a condition';
    const shuffled = (transitions: Record<string, unknown>[]) =>
      warningsAfter((w) => {
        w.state_machine.transitions = transitions;
      });
    // Unconditional then conditional, and unconditional twice: the later one is dead either way.
    expect(shuffled([{ from: "implementing", to: "done", condition: "g_impl" }, { from: "writing_tests", to: "implementing" }, { from: "writing_tests", to: "done", condition: "g_test" }])).toEqual([ambiguous]);
    expect(shuffled([{ from: "implementing", to: "done", condition: "g_impl" }, { from: "writing_tests", to: "implementing" }, { from: "writing_tests", to: "done" }])).toEqual([ambiguous]);
    // A conditional one first, or a "*" one (its place sets its priority), is not ambiguous.
    const fine = tdd();
    fine.state_machine.transitions = [{ from: "writing_tests", to: "done", condition: "should_restart" }, { from: "writing_tests", to: "implementing" }, { from: "*", to: "done" }, { from: "implementing", to: "done" }];
    expect(validateWorkflowDocument(JSON.stringify(fine)).ok).toBe(true);
    // Nor are the transitions of a state whose step chooses the way out: they list its choices (004's reflecting).
    const chosen = tdd();
    chosen.state_machine.transitions = [{ from: "writing_tests", to: "implementing" }, { from: "writing_tests", to: "done" }, { from: "implementing", to: "done" }];
    chosen.steps[0].transition_to = "implementing";
    expect(validateWorkflowDocument(JSON.stringify(chosen)).ok).toBe(true);
  });
  it("reports duplicate states, steps and guard ids", () => {
    expect(problemsAfter((w) => w.state_machine.states.push("done"))).toEqual(['workflow.state_machine.states[3]: duplicate state "done" (first at index 2)']);
    expect(problemsAfter((w) => (w.steps[1].name = "write_tests"))).toContain('workflow.steps[1].name: duplicate step name "write_tests" (first at steps[0])');
    expect(problemsAfter((w) => (w.steps[1].guard_id = "g_test"))).toEqual(
      expect.arrayContaining(['workflow.steps[1].guard_id: duplicate guard id "g_test" (first at steps[0])']),
    );
  });
  it("requires a transition map with known states on transition steps", () => {
    const transition = { name: "decide", type: "transition", in_state: "implementing", prompt: "continue or stop?" };
    expect(problemsAfter((w) => w.steps.push(transition))).toEqual(["workflow.steps[2].transition_map: is required for a transition step: map each answer to a state"]);
    expect(problemsAfter((w) => w.steps.push({ ...transition, transition_map: { stop: "halt" } }))).toEqual([
      'workflow.steps[2].transition_map.stop: "halt" is not a declared state (state_machine.states)',
    ]);
  });
});

describe("references", () => {
  it("reports dependencies never produced, produced by the step itself, or produced later", () => {
    // Without g_test the step's tdd guard has no tests either (check-guard-config.ts).
    const noTests = "workflow.steps[1].guards[1]: a tdd guard takes its tests from a dependency named test, and this step has none: add the guard id of the step that writes the tests (g_test) to guard_artifact_deps";
    expect(problemsAfter((w) => (w.steps[1].guard_artifact_deps = ["g_spec"]))).toEqual([
      noTests,
      'workflow.steps[1].guard_artifact_deps[0]: "g_spec" is not produced by any step (no action_pair step has guard_id "g_spec")',
    ]);
    expect(problemsAfter((w) => (w.steps[1].guard_artifact_deps = ["g_impl"]))).toEqual([
      noTests,
      'workflow.steps[1].guard_artifact_deps[0]: "g_impl" is this step\'s own guard: a step cannot depend on its own artifact',
    ]);
    const later = problemsAfter((w) => {
      w.state_machine.transitions.pop();
      w.steps[0].guard_artifact_deps = ["g_impl"];
      w.steps[1].guard_artifact_deps = [];
    });
    // In document order: steps[0] comes before steps[1].
    expect(later).toEqual(['workflow.steps[0].guard_artifact_deps[0]: "g_impl" is produced later: step "implement" runs in state "implementing", from which state "writing_tests" cannot be reached', noTests]);
  });
  it("reports dependency cycles", () => {
    expect(problemsAfter((w) => (w.steps[0].guard_artifact_deps = ["g_impl"]))).toContain("workflow.steps[1].guard_artifact_deps: dependency cycle: write_tests → implement → write_tests");
  });
  it("reports conditions that do not parse, with the column", () => {
    expect(problemsAfter((w) => (w.state_machine.transitions[0].condition = "g_test and"))).toEqual([
      'workflow.state_machine.transitions[0].condition: condition does not parse: expected an expression after "and" at column 11',
    ]);
    expect(problemsAfter((w) => (w.steps[1].run_if = "g_test ==="))).toEqual([expect.stringMatching(/^workflow\.steps\[1\]\.run_if: condition does not parse: .* at column \d+$/)]);
  });
  it("reports conditions and run_if naming unknown things", () => {
    expect(problemsAfter((w) => (w.state_machine.transitions[1].condition = "g_impl and ready"))).toEqual([
      `workflow.state_machine.transitions[1].condition: condition names "ready", which is neither a declared context variable, a guard id nor a step's output (steps.NAME.output)`,
    ]);
    expect(problemsAfter((w) => (w.steps[1].run_if = "tests_ok"))).toEqual([`workflow.steps[1].run_if: condition names "tests_ok", which is neither a declared context variable, a guard id nor a step's output (steps.NAME.output)`]);
  });
  it("reports a name that is both a guard id and a context variable", () => {
    expect(problemsAfter((w) => (w.context.g_test = true))).toEqual(['workflow.steps[0].guard_id: "g_test" is both a guard id and a context variable']);
  });
  it("reports unknown prompt variables and allows dependency names without g_", () => {
    const workflow = tdd();
    workflow.steps[1].prompt = "Make {test} pass; {g_test}; {{literal}}; {specification} {constraints} {should_restart}";
    expect(validateWorkflowDocument(JSON.stringify(workflow)).ok).toBe(true);
  });
  it("reports an unknown prompt variable with the allowed ones", () => {
    expect(problemsAfter((w) => (w.steps[0].prompt.task = "Write tests for {spec}"))).toEqual([
      "workflow.steps[0].prompt.task: unknown prompt variable {spec} (allowed: should_restart, specification, constraints, a built-in such as {run_id}, or {steps.NAME.output})",
    ]);
  });
  it("reports components injecting into unknown steps or using unknown variables", () => {
    expect(problemsAfter((w) => (w.components[0].inject_into = ["write_tests", "implemnt"]))).toEqual(['workflow.components[0].inject_into[1]: "implemnt" is not a step name']);
    expect(problemsAfter((w) => {
      w.components[0].inject_into = ["write_tests", "tick"];
      w.steps.push({ name: "tick", type: "code", in_state: "done", code: "x" });
    })).toEqual([
      'workflow.components[0].inject_into[1]: "tick" is a code step, which has no prompt',
    ]);
    expect(problemsAfter((w) => (w.components[0].text = "Use {test}"))).toEqual([
      "workflow.components[0].text: unknown prompt variable {test} (did you mean {task}? allowed: should_restart, specification, constraints, a built-in such as {run_id}, or {steps.NAME.output})",
    ]);
  });
});

describe("structure is still checked when part of the shape is wrong", () => {
  const badGuard = 'workflow.steps[1].guards[1].kind: "magic": must be one of syntax, test, tdd, security, json_schema, llm_judge, human, all_of, any_of';

  it("reports a bad guard option in one step and warns of an unreachable state elsewhere", () => {
    const mutate = (w: Record<string, any>) => {
      w.steps[1].guards[1] = { kind: "magic" };
      w.state_machine.states.push("limbo");
    };
    expect(problemsAfter(mutate)).toEqual([badGuard]);
    expect(warningsAfter(mutate)).toEqual(['workflow.state_machine.states[3]: state "limbo" is unreachable from the initial state "writing_tests"']);
  });

  it("reports shape errors beside undeclared states, unknown steps, variables and condition names, and dependency cycles", () => {
    expect(
      problemsAfter((w) => {
        w.steps[1].guards[1] = { kind: "magic" };
        w.steps[1].max_retries = 99;
        w.state_machine.final_states.push("finished");
        w.components[0].inject_into = ["write_tests", "implemnt"];
        w.steps[0].prompt.task = "Write tests for {spec}";
        w.state_machine.transitions[1].condition = "g_impl and ready";
      }),
    ).toEqual([
      'workflow.components[0].inject_into[1]: "implemnt" is not a step name',
      'workflow.state_machine.final_states[1]: "finished" is not a declared state (state_machine.states)',
      `workflow.state_machine.transitions[1].condition: condition names "ready", which is neither a declared context variable, a guard id nor a step's output (steps.NAME.output)`,
      "workflow.steps[0].prompt.task: unknown prompt variable {spec} (allowed: should_restart, specification, constraints, a built-in such as {run_id}, or {steps.NAME.output})",
      badGuard,
      "workflow.steps[1].max_retries: must be between 0 and 20",
    ]);
    expect(
      problemsAfter((w) => {
        w.default_on_failure = "panic";
        w.steps[0].guard_artifact_deps = ["g_impl"];
      }),
    ).toEqual([
      'workflow.default_on_failure: "panic": must be one of retry, skip, fail, escalate',
      "workflow.steps[1].guard_artifact_deps: dependency cycle: write_tests → implement → write_tests",
    ]);
  });

  it("keeps a step whose guards did not parse an action pair that produces its guard id", () => {
    // Without an explicit type, guards make the step an action pair; g_test must still count as produced.
    expect(
      problemsAfter((w) => {
        delete w.steps[0].type;
        w.steps[0].guards = [{ kind: "magic" }];
      }),
    ).toEqual(['workflow.steps[0].guards[0].kind: "magic": must be one of syntax, test, tdd, security, json_schema, llm_judge, human, all_of, any_of']);
  });

  it.each([
    ["a state that is not text", (w: Record<string, any>) => (w.state_machine.states[1] = 5), ["workflow.state_machine.states[1]: must be text (got number 5)"]],
    ["a transition with an unknown key", (w: Record<string, any>) => (w.state_machine.transitions[1].when = "g_impl"), ["workflow.state_machine.transitions[1].when: unknown key"]],
    ["a step with a misspelt key", (w: Record<string, any>) => ((w.steps[0].guardz = w.steps[0].guards), delete w.steps[0].guards, delete w.steps[0].type), ["workflow.steps[0].guardz: unknown key"]],
    ["a step with a bad target", (w: Record<string, any>) => (w.steps[0].transition_to = ""), ["workflow.steps[0].transition_to: must not be empty"]],
    ["a step that is not a mapping", (w: Record<string, any>) => (w.steps[0] = "write_tests"), ["workflow.steps[0]: must be a mapping (got text)"]],
    ["a step without a name", (w: Record<string, any>) => delete w.steps[0].name, ["workflow.steps[0].name: is required"]],
    ["a context that is not a mapping", (w: Record<string, any>) => (w.context = ["should_restart"]), ["workflow.context: must be a mapping (got a list)"]],
    ["a misspelt context section", (w: Record<string, any>) => ((w.contxt = w.context), delete w.context), ["workflow.contxt: unknown key"]],
    ["a prompt that is not text", (w: Record<string, any>) => (w.steps[1].prompt = 5), ["workflow.steps[1].prompt: must be a mapping (got number 5)"]],
  ])("reports only the shape error for %s, not guesses that follow from it", (_case, mutate, expected) => {
    expect(problemsAfter(mutate)).toEqual(expected);
  });
});
