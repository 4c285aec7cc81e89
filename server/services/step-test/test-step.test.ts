import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "@/server/testing/fake-openai-server";
import { until } from "@/server/testing/until";
import type { StepTestInput } from "./step-test-input";
import { STEP_TEST_LIMITS } from "./step-test-limits";
import { testStep, type StepTestSettings } from "./test-step";
import { ADDER_DOCUMENT, ADDER_TESTS, CORRECT_ADD, SHELLING_ADD, WRONG_ADD } from "./testing/adder-workflow";

const fence = (code: string) => `Here it is:\n\n\`\`\`javascript\n${code}\`\`\`\n`;

function implement(overrides: Partial<StepTestInput> = {}): StepTestInput {
  return { document: ADDER_DOCUMENT, state: "implementing", step: "implement", dependencies: { test: ADDER_TESTS }, generator: { kind: "answer", answer: CORRECT_ADD }, ...overrides };
}

let actors = 0;
/** Each test its own person, so the per-person limit of one test never meets another's. */
const someone = () => ({ id: `person-${++actors}` });

describe("testStep with a pasted answer", () => {
  const settings: StepTestSettings = { endpoint: {} };

  it("runs every guard on the answer and reports the prompt a model would have been sent", async () => {
    const result = await testStep(implement(), someone(), { settings });

    expect(result.outcome).toEqual({ kind: "passed" });
    expect(result.attemptsAllowed).toBe(1);
    const [attempt] = result.attempts;
    expect(attempt?.artifact).toBe(CORRECT_ADD);
    expect(attempt?.rawOutput).toBeNull();
    expect(attempt?.guards.map((guard) => [guard.kind, guard.verdict])).toEqual([
      ["syntax", "pass"],
      ["security", "pass"],
      ["tdd", "pass"],
    ]);
    expect(attempt?.guards[2]?.feedback).toMatch(/^2 tests passed/);
    expect(attempt?.guards.every((guard) => typeof guard.durationMs === "number")).toBe(true);
    expect(attempt?.prompt).toEqual([
      { role: "system", content: "You write small JavaScript modules." },
      { role: "user", content: expect.stringContaining("# ROLE\nYou are a careful engineer (plain style).") },
    ]);
    expect(attempt?.prompt[1]?.content).toContain(`# CONTEXT\nJavaScript, no dependencies`);
    expect(attempt?.prompt[1]?.content).toContain(`Implement Write add(a, b) returning the sum of two numbers so that these tests pass:\n${ADDER_TESTS}`);
  });

  it("uses the given specification and variables in the prompt", async () => {
    const result = await testStep(implement({ specification: "Add two integers", variables: { flavour: "terse" } }), someone(), { settings });
    expect(result.attempts[0]?.prompt[1]?.content).toContain("(terse style)");
    expect(result.attempts[0]?.prompt[1]?.content).toContain("Implement Add two integers so that");
  });

  it("reports a failing guard's feedback, naming the failing test", async () => {
    const result = await testStep(implement({ generator: { kind: "answer", answer: WRONG_ADD } }), someone(), { settings });

    expect(result.outcome).toMatchObject({ kind: "failed", feedback: expect.stringContaining("adds two numbers") });
    const [attempt] = result.attempts;
    expect(attempt?.verdict).toBe("fail");
    expect(attempt?.guards.map((guard) => guard.verdict)).toEqual(["pass", "pass", "fail"]);
    expect(attempt?.guards[2]?.feedback).toContain("adds two numbers");
  });

  it("reports a fatal verdict, and the guards after it as not run", async () => {
    const result = await testStep(implement({ generator: { kind: "answer", answer: SHELLING_ADD } }), someone(), { settings });

    expect(result.outcome).toMatchObject({ kind: "fatal", feedback: expect.stringContaining("child_process") });
    expect(result.attempts[0]?.guards.map((guard) => guard.verdict)).toEqual(["pass", "fatal", "not_run"]);
  });

  it("fails an empty answer by the answer check, before any guard", async () => {
    const result = await testStep(implement({ generator: { kind: "answer", answer: "  \n" } }), someone(), { settings });

    expect(result.outcome.kind).toBe("failed");
    expect(result.attempts[0]?.answerCheck).toContain("empty");
    expect(result.attempts[0]?.guards.map((guard) => guard.verdict)).toEqual(["not_run", "not_run", "not_run"]);
  });

  it("refuses retries with a pasted answer (it is one attempt)", async () => {
    await expect(testStep(implement({ retries: true }), someone(), { settings })).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringMatching(/^retries: /) });
  });
});

describe("testStep with the configured model", () => {
  let model: FakeOpenAiServer;
  let settings: StepTestSettings;

  beforeAll(async () => {
    model = await startFakeOpenAiServer();
    settings = { endpoint: { baseURL: model.baseURL, apiKey: "test-key" } };
  });
  afterAll(() => model?.close());

  it("calls the model the step names with the rendered messages, and extracts the code block", async () => {
    model.setReplies([fence(CORRECT_ADD)]);
    const before = model.count;

    const result = await testStep(implement({ generator: { kind: "model" } }), someone(), { settings });

    expect(model.count - before).toBe(1);
    const request = model.requests.at(-1)!;
    expect(request.model).toBe("adder-model");
    const [attempt] = result.attempts;
    expect(attempt?.model).toBe("adder-model");
    expect(request.messages).toEqual(attempt?.prompt);
    expect(attempt?.rawOutput).toBe(fence(CORRECT_ADD));
    expect(attempt?.artifact).toBe(CORRECT_ADD.trimEnd());
    expect(attempt?.generationMs).toBeGreaterThanOrEqual(0);
    expect(result.outcome).toEqual({ kind: "passed" });
  });

  it("says a step test cannot wait when the agent calls a tool that waits for a person", async () => {
    const document = ADDER_DOCUMENT.replace(
      'generator: { kind: openai, model: adder-model, system_prompt: "You write small JavaScript modules." }',
      "generator: { kind: agent, model: adder-model, tools: [ask_owner] }",
    ).replace("  state_machine:\n", "  tools:\n    ask_owner: { kind: person, description: Ask the owner., answer_schema: { type: object, properties: { answer: { type: string } } } }\n  state_machine:\n");
    model.setReplies([{ toolCalls: [{ name: "ask_owner", arguments: JSON.stringify({ question: "Integers only?" }) }] }]);

    const result = await testStep(implement({ document, generator: { kind: "model" } }), someone(), { settings });

    expect(result.outcome).toEqual({
      kind: "generation_failed",
      reason: "The agent called ask_owner (person), which waits for a result from outside the run: a step test cannot wait, so run the workflow to try it",
    });
  });

  it("with retries, feeds the failing guard's feedback into the next prompt, up to the step's budget", async () => {
    model.setReplies([fence(WRONG_ADD), fence(WRONG_ADD), fence(CORRECT_ADD)]);

    const result = await testStep(implement({ generator: { kind: "model" }, retries: true }), someone(), { settings });

    expect(result.attemptsAllowed).toBe(3);
    expect(result.attempts.map((attempt) => attempt.verdict)).toEqual(["fail", "fail", "pass"]);
    expect(result.attempts[1]?.prompt[1]?.content).toContain("The last attempt failed: ");
    expect(result.attempts[1]?.prompt[1]?.content).toContain("adds two numbers");
    expect(result.outcome).toEqual({ kind: "passed" });
  });

  it("makes one attempt without retries, whatever the step's budget", async () => {
    model.setReplies([fence(WRONG_ADD), fence(CORRECT_ADD)]);
    const result = await testStep(implement({ generator: { kind: "model" } }), someone(), { settings });
    expect(result.attempts).toHaveLength(1);
    expect(result.outcome.kind).toBe("failed");
  });

  it("reports a model call that fails as no answer, with the prompt it sent", async () => {
    model.setReplies([{ status: 401, body: { error: { message: "bad key" } } }]);
    const result = await testStep(implement({ generator: { kind: "model" } }), someone(), { settings });
    expect(result.outcome.kind).toBe("generation_failed");
    expect(result.attempts[0]).toMatchObject({ verdict: "no_answer", artifact: null });
    expect(result.attempts[0]?.prompt).toHaveLength(2);
  });

  it("refuses a step without a model when none is configured, naming the field: a configuration error, not a verdict", async () => {
    const before = model.count;
    const input: StepTestInput = { document: ADDER_DOCUMENT, state: "writing_tests", step: "write_tests", generator: { kind: "model" } };
    await expect(testStep(input, someone(), { settings })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: 'steps[0].generator.model: names no model, and endpoint "environment" has no default model (set the step\'s model option, or set OPENAI_MODEL)',
    });
    expect(model.count).toBe(before);
  });

  it("stops at the time budget and says so", async () => {
    model.setReplies([{ fault: "hang" }]);
    const result = await testStep(implement({ generator: { kind: "model" } }), someone(), { settings: { ...settings, totalMs: 300 } });
    expect(result.outcome).toEqual({ kind: "timed_out", reason: expect.stringContaining("was stopped") });
  });

  it("allows each person two tests at once, refuses a third, and frees the slots when the requests are aborted", async () => {
    model.setReplies([{ fault: "hang" }]);
    const person = someone();
    const before = model.requests.length;
    const requests = [new AbortController(), new AbortController()];
    const running = requests.map((request) => testStep(implement({ generator: { kind: "model" } }), person, { settings, signal: request.signal }));
    const settled = running.map((promise) => promise.catch((error: unknown) => error));
    await until(async () => (model.requests.length >= before + 2 ? true : undefined));

    await expect(testStep(implement(), person, { settings })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS", message: expect.stringContaining("at most 2 at once") });
    // Someone else is not held back by this person's tests.
    await expect(testStep(implement(), someone(), { settings })).resolves.toMatchObject({ outcome: { kind: "passed" } });

    for (const request of requests) request.abort();
    for (const error of await Promise.all(settled)) expect(error).toMatchObject({ code: "CONFLICT", message: "The step test was cancelled" });
    await expect(testStep(implement(), person, { settings })).resolves.toMatchObject({ outcome: { kind: "passed" } });
  });
});

describe("testStep refuses bad input before running anything", () => {
  const settings: StepTestSettings = { endpoint: {} };
  const refuse = (input: StepTestInput, message: string | RegExp) =>
    expect(testStep(input, someone(), { settings })).rejects.toMatchObject({ code: "INVALID_INPUT", message: typeof message === "string" ? message : expect.stringMatching(message) });

  it("names the problems of an invalid draft", () =>
    refuse(implement({ document: ADDER_DOCUMENT.replace("guard_artifact_deps: [g_test]", "guard_artifact_deps: [g_nothing]") }), /^document: the draft is not a valid workflow; fix it first:\n[\s\S]*line \d+: .*g_nothing/));

  it("a step in a list of states is tested in any of them, and refused elsewhere naming them", async () => {
    const listed = ADDER_DOCUMENT.replace("      in_state: implementing\n      guard_id: g_impl", "      in_state: [implementing, writing_tests]\n      guard_id: g_impl");
    expect(listed).not.toBe(ADDER_DOCUMENT);
    await refuse(implement({ document: listed, state: "done" }), 'state: step "implement" runs in states "implementing", "writing_tests", not in "done"');
    await refuse(implement({ document: listed, state: "nowhere" }), /^state: step "implement" runs in states/);
    const result = await testStep(implement({ document: listed, state: "writing_tests" }), someone(), { settings });
    expect(result.outcome.kind).toBe("passed");
  });

  it("an unknown step, a step of another state, a step that is not an action pair", async () => {
    await refuse(implement({ step: "deploy" }), 'step: the draft has no step "deploy"');
    await refuse(implement({ state: "done" }), 'state: step "implement" runs in state "implementing", not in "done"');
    const withLlmStep = `${ADDER_DOCUMENT}    - name: summarize\n      type: llm\n      in_state: implementing\n      prompt: "Summarize {specification}"\n`;
    await refuse({ document: withLlmStep, state: "implementing", step: "summarize", generator: { kind: "model" } }, 'step: "summarize" is a step of type llm; only action_pair steps (a generator with guards) can be tested');
  });

  it("a missing or unknown dependency, and a tdd guard without the test dependency", async () => {
    await refuse(implement({ dependencies: {} }), 'dependencies.test: required: step "implement" depends on g_test; type its artifact or pin one from an earlier run');
    await refuse(implement({ dependencies: { test: ADDER_TESTS, impl: "x" } }), 'dependencies.impl: step "implement" does not depend on it (its dependencies: test)');
    const noDependency = ADDER_DOCUMENT.replace("      guard_artifact_deps: [g_test]\n", "").replace("these tests pass:\\n{test}", "the tests pass");
    await refuse(implement({ document: noDependency, dependencies: {} }), /^document: the draft is not a valid workflow; fix it first:\nline \d+: workflow\.steps\[1\]\.guards\[2\]: a tdd guard takes its tests from a dependency named test/);
  });

  it("undeclared or mistyped variables, and an empty specification", async () => {
    await refuse(implement({ variables: { colour: "red" } }), 'variables.colour: not a context variable of "adder" (declared: flavour)');
    await refuse(implement({ variables: { flavour: 3 } }), "variables.flavour: must be a text, like its default");
    await refuse(implement({ document: ADDER_DOCUMENT.replace("  specification: Write add(a, b) returning the sum of two numbers\n", ""), specification: "  " }), /^specification: must not be empty/);
  });

  it("inputs over their size limits, each named", async () => {
    await refuse(implement({ dependencies: { test: "x".repeat(STEP_TEST_LIMITS.dependencyChars + 1) } }), `dependencies.test: must be at most ${STEP_TEST_LIMITS.dependencyChars} characters`);
    await refuse(implement({ generator: { kind: "answer", answer: "x".repeat(STEP_TEST_LIMITS.answerChars + 1) } }), `generator.answer: must be at most ${STEP_TEST_LIMITS.answerChars} characters`);
    await refuse(implement({ specification: "x".repeat(STEP_TEST_LIMITS.specificationChars + 1) }), `specification: must be at most ${STEP_TEST_LIMITS.specificationChars} characters`);
    await refuse(implement({ document: "#".repeat(STEP_TEST_LIMITS.documentChars + 1) }), `document: must be at most ${STEP_TEST_LIMITS.documentChars} characters`);
    const many = Object.fromEntries(Array.from({ length: STEP_TEST_LIMITS.dependencies + 1 }, (_, index) => [`dep${index}`, "x"]));
    await refuse(implement({ dependencies: many }), `dependencies: at most ${STEP_TEST_LIMITS.dependencies} dependency artifacts`);
    await refuse(implement({ generator: { kind: "cassette", cassette: "../etc/passwd" } }), /^generator\.cassette: must be a cassette name/);
  });

  it("a cassette that does not exist, as a configuration error", () => refuse(implement({ generator: { kind: "cassette", cassette: "no-such-cassette" } }), /^steps\[1\]\.generator\.cassette: /));
});
