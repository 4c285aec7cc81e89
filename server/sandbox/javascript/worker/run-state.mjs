/**
 * Host-side state of one sandbox run: everything the verdict is computed from lives here, in
 * Node memory the sandboxed code cannot reach. The harness reports into it through the host
 * functions (host-functions.mjs); the session (session.mjs) drives the phases and reads it.
 */
export function createRunState({ nonce, memoryMb }) {
  return {
    nonce,
    /** Set when the job arrives (see Session.run); until then only the trusted harness runs. */
    deadline: Infinity,
    limits: { memoryMb },
    /** The output sink (worker/output-sink.mjs), set when the job arrives. */
    output: undefined,
    /** First limit hit by a host-side check ({ limit, message }); makes the interrupt handler stop the code. */
    kill: null,
    /** The interrupt handler has stopped the code at least once. */
    interrupted: false,
    /** "starting" | "artifact" | "tests" | "running" | "finished" */
    phase: "starting",
    /** Test names in registration order, as the harness registered them. */
    registered: [],
    /** Per test index: { kind, text }, kind "passed" | "assertion" | "error". */
    results: [],
    /** Index of the test the harness started most recently. */
    current: -1,
    done: false,
    doneCount: -1,
    /** First error thrown by a timer or microtask callback outside a test. */
    uncaught: null,
    /** Set when the harness protocol was not followed (wrong nonce, unexpected index, ...). */
    violation: "",
  };
}

export function isStopped(state) {
  return state.kill !== null || state.interrupted || Date.now() > state.deadline;
}

/** The interrupt handler: QuickJS calls it every few thousand instructions. */
export function shouldInterrupt(state) {
  if (state.kill !== null || Date.now() > state.deadline) state.interrupted = true;
  return state.interrupted;
}

/** Records the first limit hit; the interrupt handler then stops the code at its next check. */
export function stop(state, limit, message) {
  if (state.kill === null) state.kill = { limit, message: `${message} ${during(state)}` };
}

/** Records a QuickJS limit reported as an error kind ("memory" or "stack"; anything else is ignored). */
export function stopForEngineLimit(state, kind, text) {
  if (kind === "memory") stop(state, "memory", `the code ran out of memory (limit ${state.limits.memoryMb} MB): ${text}`);
  if (kind === "stack") stop(state, "stack", `the code exceeded the maximum call stack depth (unbounded recursion?): ${text}`);
}

/** Where the run was, for messages: "in test "adds numbers"", "while loading the artifact", ... */
export function during(state) {
  switch (state.phase) {
    case "artifact":
      return "while loading the artifact";
    case "tests":
      return "while running the top level of the test code";
    case "running": {
      const name = state.registered[state.current];
      return name === undefined ? "while running the tests" : `in test ${JSON.stringify(name)}`;
    }
    case "finished":
      return "after the tests finished";
    default:
      return "while starting the sandbox";
  }
}

export function setViolation(state, message) {
  if (!state.violation) state.violation = message;
}
