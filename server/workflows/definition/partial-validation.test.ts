import { describe, expect, it } from "vitest";
import type { DocumentProblem } from "../document";
import { MAX_DEFINITION_PROBLEMS } from "./problems";
import { validateWorkflowDocument } from "./validate-definition";

/**
 * Adversarial documents: one shape error in one part, structural problems elsewhere. Every
 * structural problem is still reported, at its path and line, and nothing that merely follows
 * from the shape error is reported beside it.
 */

// Four structural problems, none of them a shape error:
// - two unconditional transitions leave drafting (the second is never taken);
// - limbo is unreachable and leads nowhere; spinning is unreachable and loops on itself, no exit;
// - draft depends on g_review, produced in reviewing, from which drafting cannot be reached.
const BASE = `workflow:
  name: partial
  language: python
  context:
    ready: false
  state_machine:
    states: [drafting, reviewing, polishing, limbo, spinning, done]
    initial_state: drafting
    final_states: [done]
    transitions:
      - { from: drafting, to: reviewing }
      - { from: drafting, to: polishing }
      - { from: reviewing, to: done, condition: g_review }
      - { from: polishing, to: done, condition: g_polish and ready }
      - { from: spinning, to: spinning }
  components:
    - { name: tone, text: "Be brief.", inject_into: [review, polish] }
  steps:
    - name: draft
      in_state: drafting
      guard_id: g_draft
      prompt: "Draft it"
      guards: [{ kind: syntax }]
      guard_artifact_deps: [g_review]
    - name: review
      in_state: reviewing
      guard_id: g_review
      prompt: "Review it"
      guards: [{ kind: syntax }]
    - name: polish
      in_state: polishing
      guard_id: g_polish
      prompt: "Polish it"
      guards: [{ kind: syntax }]
`;

/** 1-based line of the first line containing `snippet`; fails the test if there is none. */
function lineOf(text: string, snippet: string): number {
  const index = text.split("\n").findIndex((line) => line.includes(snippet));
  if (index < 0) throw new Error(`no line contains ${snippet}`);
  return index + 1;
}

/**
 * `path @line: message` (`warning path @line: message` for a warning), so a test states place and
 * line together; problems and warnings by line, problems first on a shared line.
 */
function reported(text: string): string[] {
  const result = validateWorkflowDocument(text);
  if (result.ok) expect.fail("expected problems");
  const all = [...result.problems.map((problem) => ({ problem, prefix: "" })), ...result.warnings.map((problem) => ({ problem, prefix: "warning " }))];
  for (const { problem } of all) expect(problem.line, `${problem.path} has a line`).toBeTypeOf("number");
  return all
    .sort((a, b) => (a.problem.line ?? 0) - (b.problem.line ?? 0))
    .map(({ problem, prefix }: { problem: DocumentProblem; prefix: string }) => `${prefix}${problem.path} @${problem.line}: ${problem.message}`);
}

/** The four structural problems of BASE, in document order, unless a case leaves one out. */
function structural(text: string, leaveOut: string[] = []): string[] {
  const all = [
    `workflow.state_machine.states[3] @${lineOf(text, "states: [")}: state "limbo" has no path to a final state (done)`,
    `workflow.state_machine.states[4] @${lineOf(text, "states: [")}: state "spinning" has no path to a final state (done)`,
    `warning workflow.state_machine.states[3] @${lineOf(text, "states: [")}: state "limbo" is unreachable from the initial state "drafting"`,
    `warning workflow.state_machine.states[4] @${lineOf(text, "states: [")}: state "spinning" is unreachable from the initial state "drafting"`,
    `warning workflow.state_machine.transitions[1] @${lineOf(text, "to: polishing")}: ambiguous: state "drafting" already leaves without a condition at transitions[0] (to "reviewing"), so this transition to "polishing" is never taken; give the earlier one a condition`,
    `workflow.steps[0].guard_artifact_deps[0] @${lineOf(text, "guard_artifact_deps: [g_review]")}: "g_review" is produced later: step "review" runs in state "reviewing", from which state "drafting" cannot be reached`,
  ];
  return all.filter((line) => !leaveOut.some((part) => line.includes(part)));
}

const replace = (from: string, to: string) => {
  if (!BASE.includes(from)) throw new Error(`BASE has no ${from}`);
  return BASE.replace(from, to);
};

describe("every structural problem is reported beside a shape error elsewhere", () => {
  it("reports the structural problems of a document with no shape error, in document order", () => {
    expect(reported(BASE)).toEqual(structural(BASE));
  });

  it("a step with a bad guard: its guard id still counts as produced, its state as reachable", () => {
    const text = replace("      guard_id: g_polish\n      prompt: \"Polish it\"\n      guards: [{ kind: syntax }]", "      guard_id: g_polish\n      prompt: \"Polish it\"\n      guards: [{ kind: magic }]");
    const shape = `workflow.steps[2].guards[0].kind @${lineOf(text, "kind: magic")}: "magic": must be one of syntax, test, tdd, security, json_schema, llm_judge, human, all_of, any_of`;
    expect(reported(text)).toEqual([...structural(text), shape]);
  });

  it("a step with retries out of range", () => {
    const text = replace('      prompt: "Review it"', '      prompt: "Review it"\n      max_retries: 99');
    expect(reported(text)).toEqual([...structural(text), `workflow.steps[1].max_retries @${lineOf(text, "max_retries: 99")}: must be between 0 and 20`]);
  });

  it("a step without a usable state: its name and guard id are not called unknown", () => {
    // (A missing in_state is 004's "any state"; a number is no state at all.)
    const text = replace("      in_state: reviewing\n", "      in_state: 7\n");
    // review no longer runs anywhere, so "produced later" cannot be judged; the rest stands.
    expect(reported(text)).toEqual([...structural(text, ["produced later"]), `workflow.steps[1].in_state @${lineOf(text, "in_state: 7")}: must be a state name or a list of state names`]);
  });

  it("a step whose guard id is not text: conditions and dependencies naming guard ids are left alone", () => {
    const text = replace("guard_id: g_review", "guard_id: [1]");
    expect(reported(text)).toEqual([...structural(text, ["produced later"]), `workflow.steps[1].guard_id @${lineOf(text, "guard_id: [1]")}: must be text (got a list)`]);
  });

  it("a step with a misspelt key: the name it holds is not called unknown", () => {
    const text = replace("guard_id: g_polish", "guard_idd: g_polish");
    expect(reported(text)).toEqual([...structural(text), `workflow.steps[2].guard_idd @${lineOf(text, "guard_idd")}: unknown key`]);
  });

  it("a step with a misspelt way out: the state it names counts as reachable, nothing else changes", () => {
    const text = replace('      prompt: "Polish it"', '      prompt: "Polish it"\n      transiton_to: limbo');
    // limbo may be where polishing leads, so it is not called unreachable; it still leads nowhere.
    const kept = structural(text).filter((line) => !line.includes('"limbo" is unreachable'));
    expect(reported(text)).toEqual([...kept, `workflow.steps[2].transiton_to @${lineOf(text, "transiton_to")}: unknown key`]);
  });

  it("a step whose way out is not a state name: its state may lead anywhere, every other check stands", () => {
    const text = replace('      prompt: "Polish it"', '      prompt: "Polish it"\n      transition_to: 42');
    // polishing is reachable and may lead anywhere, so no state is called unreachable; spinning and limbo still lead nowhere.
    expect(reported(text)).toEqual([...structural(text, ["unreachable"]), `workflow.steps[2].transition_to @${lineOf(text, "transition_to: 42")}: must be text (got number 42)`]);
  });

  it("a transition whose condition is not text: still an edge, never judged unconditional", () => {
    const text = replace("{ from: reviewing, to: done, condition: g_review }", "{ from: reviewing, to: done, condition: [g_review] }");
    expect(reported(text)).toEqual([...structural(text), `workflow.state_machine.transitions[2].condition @${lineOf(text, "condition: [g_review]")}: must be text (got a list)`].sort(byLine(text)));
  });

  it("a state that is not text: transitions naming it are not called undeclared, reachability still runs", () => {
    const text = replace("spinning, done]", "spinning, { done: 1 }]");
    // With the final state lost, "no path to a final state" cannot be judged.
    expect(reported(text)).toEqual([`workflow.state_machine.states[5] @${lineOf(text, "states: [")}: must be text (got a mapping)`, ...structural(text, ["no path"])].sort(byLine(text)));
  });

  it("a goal beside a shape error: a goal naming no guard id is reported, one naming the broken step's is not", () => {
    const text = replace("guard_id: g_polish", "guard_idd: g_polish").replace("  steps:\n", "  goal: [g_review, g_polish, g_sumary]\n  steps:\n");
    const goal = lineOf(text, "goal: [");
    expect(reported(text)).toEqual(
      [
        ...structural(text),
        `workflow.goal[2] @${goal}: "g_sumary" is not the guard id of any action_pair step (the guard ids are "g_draft", "g_review")`,
        `workflow.steps[2].guard_idd @${lineOf(text, "guard_idd")}: unknown key`,
      ].sort(byLine(text)),
    );
  });

  it("a section with a wrong type: the structure around it is still checked", () => {
    const text = replace("    ready: false", "    ready: [false]");
    expect(reported(text)).toEqual([`workflow.context.ready @${lineOf(text, "ready: [false]")}: must be a boolean, number or string`, ...structural(text)]);
  });
});

/** Orders `path @line: message` lines by their line, keeping ties in place (as the validator does). */
function byLine(_text: string) {
  const line = (entry: string) => Number(/ @(\d+):/.exec(entry)?.[1]);
  return (a: string, b: string) => line(a) - line(b);
}

describe("documents with only shape errors", () => {
  it("reports each shape error with its path and line, in document order, and nothing else", () => {
    const text = `workflow:
  name: shapes
  language: python
  default_on_failure: panic
  state_machine:
    states: [start, done]
    initial_state: start
    final_states: [done]
    transitions:
      - { from: start, to: done, when: g_a }
  steps:
    - name: a
      in_state: start
      guard_id: g_a
      prompt: "Do it"
      guards: [{ kind: syntax }]
      on_failure: later
`;
    expect(reported(text)).toEqual([
      `workflow.default_on_failure @4: "panic": must be one of retry, skip, fail, escalate`,
      `workflow.state_machine.transitions[0].when @10: unknown key`,
      `workflow.steps[0].on_failure @17: "later": must be one of retry, skip, fail, escalate`,
    ]);
  });
});

describe("a document with very many problems", () => {
  it(`lists the first ${MAX_DEFINITION_PROBLEMS} in document order and counts the rest in one last line`, () => {
    const steps = Array.from({ length: 300 }, (_, i) => `    - { name: s${i}, in_state: start, guard_id: g${i}, prompt: "p", guards: [{ kind: syntax }], max_retries: 99 }`).join("\n");
    const text = `workflow:
  name: many
  state_machine:
    states: [start, done]
    initial_state: start
    final_states: [done]
    transitions:
      - { from: start, to: done }
  steps:
${steps}
`;
    const result = validateWorkflowDocument(text);
    if (result.ok) expect.fail("expected problems");
    expect(result.problems).toHaveLength(MAX_DEFINITION_PROBLEMS + 1);
    expect(result.problems[0]).toMatchObject({ path: "workflow.steps[0].max_retries", line: 10 });
    expect(result.problems[MAX_DEFINITION_PROBLEMS - 1]).toMatchObject({ path: `workflow.steps[${MAX_DEFINITION_PROBLEMS - 1}].max_retries` });
    expect(result.problems.at(-1)).toEqual({ path: "document", message: "and 100 more problems not shown" });
  });
});
