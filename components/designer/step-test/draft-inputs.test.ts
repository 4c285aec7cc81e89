import { describe, expect, it } from "vitest";
import { draftInputs } from "./draft-inputs";

const DOCUMENT = `workflow:
  name: demo
  specification: Build it
  language: python
  context: { retries: 2, strict: true, tone: calm }
  state_machine: { states: [a, b], initial_state: a, final_states: [b] }
  steps:
    - { name: tests, in_state: a, guard_id: g_test, guards: [ { kind: syntax } ], prompt: x }
    - { name: impl, in_state: b, guard_id: g_impl, guards: [ { kind: tdd } ], guard_artifact_deps: [g_test, plain], prompt: x }
`;

describe("draftInputs", () => {
  it("reads the specification, the declared variables with their defaults and the step's dependencies", () => {
    expect(draftInputs(DOCUMENT, "impl")).toEqual({
      specification: "Build it",
      variables: [
        { name: "retries", value: 2 },
        { name: "strict", value: true },
        { name: "tone", value: "calm" },
      ],
      dependencies: [
        { guardId: "g_test", name: "test" },
        { guardId: "plain", name: "plain" },
      ],
      language: "python",
    });
    expect(draftInputs(DOCUMENT, "tests").dependencies).toEqual([]);
  });

  it("starts empty for a draft that does not parse", () => {
    expect(draftInputs("workflow: [", "impl")).toEqual({ specification: "", variables: [], dependencies: [], language: null });
  });
});
