import { during } from "./run-state.mjs";

/**
 * Verdicts of a run, computed from the host-side run state only. Shapes follow TestRunOutcome
 * (server/sandbox/types.ts) without `output` and `durationMs`, which the host thread adds.
 */

/** The run was stopped by a limit (the interrupt handler, or a limit a host function noticed). */
export function limitOutcome(state) {
  if (state.kill !== null) return { status: "limit", limit: state.kill.limit, message: state.kill.message };
  return {
    status: "limit",
    limit: "wall_clock",
    message: `the run exceeded the wall-clock limit of ${state.limits.wallClockMs} ms ${during(state)} (an endless loop, or work that never finishes?)`,
  };
}

export function incompleteOutcome(message) {
  return { status: "incomplete", message };
}

function testResults(state) {
  return state.registered.map((name, index) => {
    const result = state.results[index];
    return result.kind === "passed" ? { name, passed: true } : { name, passed: false, message: result.text };
  });
}

function describeTimer(timers) {
  const timer = timers.peek();
  const where = timer.where ? ` at ${timer.where}` : "";
  const others = timers.size > 1 ? ` (${timers.size} timers were pending)` : "";
  return `a timer set with setTimeout(…, ${timer.delay})${where} was still pending when the tests ended${others}: it would fire after the test ends. Await it, or cancel it with clearTimeout.`;
}

/** After the harness signalled the end: check the reports against the registrations, then judge. */
export function finalOutcome(state, timers) {
  if (state.violation) return incompleteOutcome(`the test harness's reports could not be trusted: ${state.violation}`);
  if (!state.done) {
    return incompleteOutcome("the tests did not reach their end: the run stopped before the test harness finished (was it broken by the code under test?)");
  }
  const reported = state.results.filter((result) => result !== undefined).length;
  if (state.doneCount !== state.registered.length || reported !== state.registered.length) {
    return incompleteOutcome(`the tests did not reach their end: ${state.registered.length} tests were registered but ${reported} reported a result`);
  }
  const tests = testResults(state);
  if (state.uncaught !== null) return { status: "error", message: state.uncaught, tests };
  if (timers.size > 0) {
    const failed = tests.filter((test) => !test.passed);
    const also = failed.length > 0 ? ` Also, ${failed.length} of ${tests.length} tests failed, first ${JSON.stringify(failed[0].name)}: ${failed[0].message}` : "";
    return { status: "limit", limit: "timers", message: describeTimer(timers) + also };
  }
  if (tests.length === 0) return { status: "passed", tests: [{ name: "(top level)", passed: true }] };
  return { status: tests.every((test) => test.passed) ? "passed" : "failed", tests };
}
