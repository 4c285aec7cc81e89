/**
 * The smallest valid workflow document as a plain object: one llm step that moves from `start`
 * to the final state `done`. For tests that need a stored, valid workflow and do not care which.
 */
export function minimalWorkflowDefinition(name: string, task = "Write {specification}") {
  return {
    name,
    state_machine: { states: ["start", "done"], initial_state: "start", final_states: ["done"], transitions: [{ from: "start", to: "done" }] },
    steps: [{ name: "write", in_state: "start", prompt: task }],
  };
}
