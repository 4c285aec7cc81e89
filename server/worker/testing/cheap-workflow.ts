import { validateWorkflowDocument, type WorkflowDefinition } from "../../workflows/definition";

// Two cheap steps (JSON schema guards) so the test measures the protocol, not the guards: the
// second step fails once and passes with feedback, the second depending on the first.
const WORKFLOW = `
name: many-runs
specification: Produce two JSON objects
state_machine:
  states: [a, b, done]
  initial_state: a
  final_states: [done]
  transitions:
    - { from: a, to: b, condition: g_a }
    - { from: b, to: done, condition: g_b }
steps:
  - { name: first, in_state: a, guard_id: g_a, prompt: "Say a", guards: [{ kind: json_schema, schema: { type: object, required: [a] } }] }
  - { name: second, in_state: b, guard_id: g_b, prompt: "Say b", guard_artifact_deps: [g_a], guards: [{ kind: json_schema, schema: { type: object, required: [b] } }] }
`;
export const CHEAP_CASSETTE = { format: "dualstate-cassette/1", steps: { first: ['{"a": 1}'], second: ['{"x": 1}', '{"b": 2}'] } };

/** The workflow above, validated. */
export function cheapWorkflow(): WorkflowDefinition {
  const validated = validateWorkflowDocument(WORKFLOW, "many-runs.yaml");
  if (!validated.ok) throw new Error(validated.problems.map((problem) => problem.message).join("\n"));
  return validated.definition;
}
