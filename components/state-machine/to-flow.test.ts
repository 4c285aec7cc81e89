import { describe, expect, it } from "vitest";
import { machineToFlow } from "./to-flow";

type Machine = Parameters<typeof machineToFlow>[0];

const machine: Machine = {
  states: [
    { name: "writing", initial: true, final: false, steps: [] },
    { name: "review", initial: false, final: false, steps: [] },
    { name: "done", initial: false, final: true, steps: [] },
  ],
  transitions: [
    { from: "writing", to: "review", condition: null, source: "transition", step: null },
    { from: "review", to: "done", condition: null, source: "transition", step: null },
  ],
  path: [],
  current: null,
};

describe("machineToFlow: the editor's marks", () => {
  it("marks states a problem concerns red and states only a warning concerns amber, never both", () => {
    const flow = machineToFlow(machine, ["review"], { warnedStates: ["writing", "review"] });
    expect(flow.nodes.map((node) => [node.id, node.data.problem, node.data.warning])).toEqual([
      ["writing", false, true],
      ["review", true, false],
      ["done", false, false],
    ]);
  });

  it("marks nothing as warned without warnings (a run's graph)", () => {
    expect(machineToFlow(machine).nodes.every((node) => !node.data.warning && !node.data.problem)).toBe(true);
  });
});
