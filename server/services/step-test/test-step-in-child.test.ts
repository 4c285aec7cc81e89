import { describe, expect, it } from "vitest";
import type { StepTestInput } from "./step-test-input";
import { testStepInChildProcess } from "./test-step-in-child";
import { ADDER_DOCUMENT, ADDER_TESTS } from "./testing/adder-workflow";

const implement = (generator: StepTestInput["generator"]): StepTestInput => ({ document: ADDER_DOCUMENT, state: "implementing", step: "implement", dependencies: { test: ADDER_TESTS }, generator });

// Each test starts a process (tsx and the guard modules): seconds on a busy machine.
describe("testStepInChildProcess", { timeout: 180_000 }, () => {
  it("refuses bad input in the caller's process, without starting one", async () => {
    await expect(testStepInChildProcess({ ...implement({ kind: "answer", answer: "x" }), step: "nope" }, { id: "child-1" })).rejects.toMatchObject({ code: "INVALID_INPUT", message: 'step: the draft has no step "nope"' });
  });

  it("hands a configuration error found in the child back as the same service error", async () => {
    await expect(testStepInChildProcess(implement({ kind: "cassette", cassette: "no-such-cassette" }), { id: "child-2" })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringMatching(/^steps\[1\]\.generator\.cassette: /),
    });
  });

  it("ends the test when the request is aborted, and frees the person's slot", async () => {
    const person = { id: "child-3" };
    const looping = implement({ kind: "answer", answer: "function add(a, b) { while (true) {} }\nmodule.exports = add;\n" });
    const requests = [new AbortController(), new AbortController()];
    const running = requests.map((request) => testStepInChildProcess(looping, person, { signal: request.signal }).catch((error: unknown) => error));
    await expect(testStepInChildProcess(looping, person)).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });

    for (const request of requests) request.abort();
    for (const error of await Promise.all(running)) expect(error).toMatchObject({ code: "CONFLICT", message: "The step test was cancelled" });
    const again = new AbortController();
    const next = testStepInChildProcess(looping, person, { signal: again.signal }).catch((error: unknown) => error);
    again.abort();
    expect(await next).toMatchObject({ code: "CONFLICT" });
  });
});
