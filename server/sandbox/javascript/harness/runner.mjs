/**
 * GUEST CODE (see intrinsics.mjs): self-contained, uses only `I`, the formatter `F`, the error
 * describer `D`, the captured host functions `H` and the run's secret `nonce`.
 *
 * test/it/describe collect tests while the test code's top level runs; runAll() then runs them
 * in order, one at a time, awaiting async ones. Every result goes straight to the host
 * (H.record), and the end of the run is signalled by H.done. Each of these calls carries the
 * nonce, which lives only in this closure and on the host: code under test can neither forge
 * results nor claim that the run finished.
 */
export function createRunner(I, F, D, H, nonce) {
  "use strict";
  const call = I.apply;
  const tests = F.newList();
  let prefix = "";
  let phase = "collecting"; // then "running", then "finished"
  let current = -1; // index of the running test
  let token = 0; // bumps whenever a test is settled, so late callbacks of an abandoned test are ignored

  function fail(message) {
    return I.construct(I.Error, [message]);
  }

  function label(name) {
    return typeof name === "string" ? name : F.formatValue(name);
  }

  const test = (name, fn) => {
    if (phase !== "collecting") throw fail("test() must be called at the top level of the test code or inside describe(), not while the tests run");
    if (typeof fn !== "function") throw I.construct(I.TypeError, ["test(name, fn): fn must be a function, got " + F.formatValue(fn)]);
    const fullName = F.slice(prefix + label(name), 0, 500);
    H.register(nonce, tests.length, fullName);
    F.append(tests, { __proto__: null, name: fullName, fn });
  };

  const describe = (name, fn) => {
    if (phase !== "collecting") throw fail("describe() must be called at the top level of the test code, not while the tests run");
    if (typeof fn !== "function") throw I.construct(I.TypeError, ["describe(name, fn): fn must be a function, got " + F.formatValue(fn)]);
    const outer = prefix;
    prefix = outer + label(name) + " > ";
    try {
      const result = fn();
      if (H.isPromise(result)) throw fail("describe() callbacks must be synchronous: register tests with test() inside them and await inside the tests");
    } finally {
      prefix = outer;
    }
  };

  function report(index, error) {
    const description = D.describeError(error);
    H.record(nonce, index, description[0], description[1]);
  }

  function waitFor(promise, index, myToken) {
    const settle = (failed) => (value) => {
      if (token !== myToken || current !== index) return;
      if (failed) report(index, value);
      else H.record(nonce, index, "passed", "");
      step(index + 1);
    };
    call(I.promiseThen, promise, [settle(false), settle(true)]);
  }

  function step(first) {
    for (let index = first; index < tests.length; index++) {
      current = index;
      token += 1;
      H.started(nonce, index);
      let result;
      try {
        result = call(tests[index].fn, undefined, []);
      } catch (error) {
        report(index, error);
        continue;
      }
      if (H.isPromise(result)) return waitFor(result, index, token);
      H.record(nonce, index, "passed", "");
    }
    current = -1;
    phase = "finished";
    H.done(nonce, tests.length);
  }

  function runAll() {
    if (phase !== "collecting") return;
    phase = "running";
    step(0);
  }

  /** Ends the running test as failed with `kind`/`text` and moves on; false if no test is running. */
  function failCurrent(kind, text) {
    if (phase !== "running" || current < 0) return false;
    const index = current;
    current = -1;
    token += 1;
    H.record(nonce, index, kind, text);
    step(index + 1);
    return true;
  }

  /** Called by the host when nothing is left to run: the awaited promise can never settle. */
  function abandon() {
    return failCurrent("error", "the test never finished: it waits for a promise that can never settle (no timers or other pending work are left)");
  }

  /** An error thrown by a timer or microtask callback fails the running test, or the run. */
  function uncaught(error, source) {
    const description = D.describeError(error);
    const text = "uncaught error in a " + source + " callback: " + description[1];
    const kind = description[0];
    if (kind === "memory" || kind === "stack" || kind === "interrupted" || !failCurrent(kind, text)) H.uncaught(nonce, kind, text);
  }

  return I.freeze({ __proto__: null, test, describe, runAll, abandon, uncaught });
}
