import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadWorkflowDocument } from "./load";
import { toYaml } from "./to-yaml";

const WORKFLOW = {
  name: "tdd-loop",
  version: 2,
  temperature: 0.2,
  enabled: true,
  optional: null,
  tricky: ["yes", "no", "on", "off", "null", "~", "1.0", "0x10", "true", "2001-12-14", "*", "&a", "!tag", "- x", "a: b", "#c", "", " padded ", "'q'", '"dq"'],
  workflow: {
    state_machine: {
      states: ["observing", "implementing", "testing"],
      initial_state: "observing",
      final_states: ["shipping"],
      transitions: [
        { from: "observing", to: "implementing", condition: "has_context" },
        { from: "*", to: "observing", condition: "should_pivot" },
      ],
    },
    steps: [
      {
        name: "implement",
        type: "llm",
        in_state: "implementing",
        prompt: 'You are {agent_id}.\nSay "hello" and use *stars* and: colons.\n\n  indented line\n',
        no_trailing_newline: "line 1\nline 2",
        transition_to: "testing",
      },
    ],
  },
};

describe("toYaml", () => {
  it("round-trips a realistic workflow through loadWorkflowDocument", () => {
    const text = toYaml(WORKFLOW);
    const result = loadWorkflowDocument(text);
    if (!result.ok) expect.fail(JSON.stringify(result.problems));
    expect(result.value).toEqual(WORKFLOW);
  });

  it("keeps key order, indents by 2 and writes prompts as block literals", () => {
    const text = toYaml(WORKFLOW);
    expect(text.split("\n").slice(0, 4)).toEqual(["name: tdd-loop", "version: 2", "temperature: 0.2", "enabled: true"]);
    expect(text).toContain("    - name: implement\n      type: llm\n");
    expect(text).toContain("      prompt: |\n        You are {agent_id}.\n");
    expect(text).toContain('  - "yes"\n  - "no"\n');
    expect(text).toContain('      - from: "*"\n');
  });

  it("quotes strings a YAML 1.1 reader would take for booleans", () => {
    expect(parse(toYaml({ a: "yes", b: "on" }), { version: "1.1" })).toEqual({ a: "yes", b: "on" });
  });

  it("writes repeated objects out in full rather than as aliases", () => {
    const guard = { kind: "tests" };
    expect(toYaml({ a: guard, b: guard })).not.toContain("*");
  });
});
