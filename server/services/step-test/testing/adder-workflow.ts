/**
 * A small JavaScript workflow for step tests: tests first (g_test), then an implementation
 * checked by syntax, security and tdd guards against them. Runs in the QuickJS sandbox, so it
 * needs nothing installed.
 */
export const ADDER_DOCUMENT = `workflow:
  name: adder
  specification: Write add(a, b) returning the sum of two numbers
  constraints: JavaScript, no dependencies
  language: javascript
  context:
    flavour: plain
  state_machine:
    states: [writing_tests, implementing, done]
    initial_state: writing_tests
    final_states: [done]
    transitions:
      - { from: writing_tests, to: implementing, condition: g_test }
      - { from: implementing, to: done, condition: g_impl }
  steps:
    - name: write_tests
      in_state: writing_tests
      guard_id: g_test
      generator: { kind: llm }
      prompt: "Write tests for: {specification}"
      guards: [ { kind: syntax } ]
    - name: implement
      in_state: implementing
      guard_id: g_impl
      generator: { kind: openai, model: adder-model, system_prompt: "You write small JavaScript modules." }
      prompt:
        role: "You are a careful engineer ({flavour} style)."
        task: "Implement {specification} so that these tests pass:\\n{test}"
        feedback_wrapper: "The last attempt failed: {feedback}"
      guards: [ { kind: syntax }, { kind: security }, { kind: tdd } ]
      guard_artifact_deps: [g_test]
      max_retries: 2
`;

export const ADDER_TESTS = `const assert = require('assert');
const add = require('./add');

test('adds two numbers', () => {
  assert.strictEqual(add(2, 3), 5);
});

test('adds negatives', () => {
  assert.strictEqual(add(-2, -3), -5);
});
`;

export const CORRECT_ADD = "function add(a, b) {\n  return a + b;\n}\n\nmodule.exports = add;\n";
export const WRONG_ADD = "function add(a, b) {\n  return a - b;\n}\n\nmodule.exports = add;\n";
/** Passes the tests but shells out: the security guard's verdict is fatal. */
export const SHELLING_ADD = "const { execSync } = require('child_process');\nfunction add(a, b) {\n  execSync('true');\n  return a + b;\n}\n\nmodule.exports = add;\n";
