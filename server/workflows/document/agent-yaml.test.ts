import { describe, expect, it } from "vitest";
import { loadWorkflowDocument } from "./load";

/** An agent.yaml in the style of the execution-model notes (seed 004). */
const AGENT_YAML = `# From agent.yaml
id: builder
enabled: yes            # YAML 1.2: stays the string "yes"
workflow:
  state_machine:
    states: ["observing", "ideating", "implementing", "testing", "reflecting", "shipping"]
    initial_state: "observing"
    final_states: [shipping]
    transitions:
      - from: "observing"
        to: "ideating"
        condition: "has_context"
      - from: "implementing"
        to: "testing"
        # No condition = always valid
      - from: "*"           # Wildcard: any state
        to: "observing"
        condition: "should_pivot"
  steps:
    - name: observe
      type: llm
      in_state: "observing"
      prompt: |
        === GOAL: Maximize scrip ===
        You are {agent_id}. Balance: {balance}...
      transition_to: "ideating"
    - name: compute_metrics
      type: code
      code: |
        success_rate = context.get('successes', 0) / max(context.get('total', 1), 1)
        context['should_pivot'] = success_rate < 0.3
      guards:
        - kind: tests
          retries: 3
    - name: strategic_reflect
      type: transition
      in_state: "reflecting"
      prompt: >-
        Based on your performance,
        choose ONE.
      transition_map:
        continue: "implementing"
        pivot: "observing"
        ship: "shipping"
      on_failure: retry
`;

describe("a realistic agent.yaml", () => {
  it("loads to the expected plain value", () => {
    const result = loadWorkflowDocument(AGENT_YAML, { fileName: "agent.yaml" });
    if (!result.ok) expect.fail(JSON.stringify(result.problems));
    expect(result.value).toEqual({
      id: "builder",
      enabled: "yes",
      workflow: {
        state_machine: {
          states: ["observing", "ideating", "implementing", "testing", "reflecting", "shipping"],
          initial_state: "observing",
          final_states: ["shipping"],
          transitions: [
            { from: "observing", to: "ideating", condition: "has_context" },
            { from: "implementing", to: "testing" },
            { from: "*", to: "observing", condition: "should_pivot" },
          ],
        },
        steps: [
          {
            name: "observe",
            type: "llm",
            in_state: "observing",
            prompt: "=== GOAL: Maximize scrip ===\nYou are {agent_id}. Balance: {balance}...\n",
            transition_to: "ideating",
          },
          {
            name: "compute_metrics",
            type: "code",
            code: "success_rate = context.get('successes', 0) / max(context.get('total', 1), 1)\ncontext['should_pivot'] = success_rate < 0.3\n",
            guards: [{ kind: "tests", retries: 3 }],
          },
          {
            name: "strategic_reflect",
            type: "transition",
            in_state: "reflecting",
            prompt: "Based on your performance, choose ONE.",
            transition_map: { continue: "implementing", pivot: "observing", ship: "shipping" },
            on_failure: "retry",
          },
        ],
      },
    });
  });

  it("locates field paths at their line and column", () => {
    const result = loadWorkflowDocument(AGENT_YAML);
    if (!result.ok) expect.fail("should load");
    expect(result.locate([])).toEqual({ line: 2, column: 1 });
    expect(result.locate(["workflow", "steps", 1, "guards", 0, "kind"])).toEqual({ line: 33, column: 17 });
    expect(result.locate(["workflow", "state_machine", "transitions", 2, "from"])).toEqual({ line: 16, column: 15 });
    expect(result.locate(["workflow", "state_machine", "states", 5])).toEqual({ line: 6, column: 80 });
    expect(result.locate(["workflow", "steps", 0, "prompt"])).toEqual({ line: 23, column: 15 });
    expect(result.locate(["workflow", "steps", 9])).toBeUndefined();
    expect(result.locate(["workflow", "nope"])).toBeUndefined();
    expect(result.locate(["id", "deeper"])).toBeUndefined();
  });

  it("locates through aliases at the anchored node, and an alias itself where it is used", () => {
    const result = loadWorkflowDocument("common: &g\n  kind: tests\nsteps:\n  - guard: *g\n");
    if (!result.ok) expect.fail("should load");
    expect(result.locate(["steps", 0, "guard", "kind"])).toEqual({ line: 2, column: 9 });
    expect(result.locate(["steps", 0, "guard"])).toEqual({ line: 4, column: 12 });
  });

  it("locates keys written as numbers by the text written", () => {
    const result = loadWorkflowDocument("codes:\n  1.0: a\n");
    if (!result.ok) expect.fail("should load");
    expect(result.locate(["codes", "1.0"])).toEqual({ line: 2, column: 8 });
  });
});
