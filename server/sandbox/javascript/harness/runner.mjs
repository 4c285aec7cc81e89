/**
 * GUEST CODE (see intrinsics.mjs): self-contained, uses only `I`, the formatter `F`, the error
 * describer `D`, the captured host functions `H`, the run's secret `nonce`, the assertion
 * counter `counter` (expect.assertions) and `extras` (assert, mock, expect) for the test contexts.
 *
 * Collects tests, suites (describe) and hooks while the test code's top level runs; runAll()
 * then registers the tests that will run (skip/only/todo applied) with the host, in order, and
 * runs them one at a time: beforeAll hooks before a suite's first test, beforeEach hooks outer
 * to inner, the test, afterEach hooks inner to outer, afterAll hooks after a suite's last test.
 * Every step may be synchronous, return a promise, or take a done callback. Every result goes
 * straight to the host (H.record), and the end of the run is signalled by H.done. Each of these
 * calls carries the nonce, which lives only in this closure and on the host: code under test
 * can neither forge results nor claim that the run finished.
 *
 * Flavours: "jest" (the globals, @jest/globals: a test function with a parameter gets done),
 * "vitest" (a parameter is the test context, with expect) and "node" (node:test: the test function gets a test context `t`, and done as its second
 * parameter; t.test() runs a subtest, reported as "parent > subtest").
 */
export function createRunner(I, F, D, H, nonce, counter, extras) {
  "use strict";
  const call = I.apply;
  const MAX_NAME = 500;
  /** As many as the host accepts (host-functions.mjs); refused while collecting, so the message names the cause. */
  const MAX_TESTS = 10000;
  let collected = 0;
  const HOOKS = ["beforeAll", "afterAll", "beforeEach", "afterEach"];

  function newSuite(parent, prefix, mode) {
    const hooks = { __proto__: null };
    for (let i = 0; i < HOOKS.length; i++) hooks[HOOKS[i]] = F.newList();
    return { __proto__: null, parent, prefix, mode, entries: F.newList(), hooks, planned: 0, left: -1, failure: null };
  }

  const root = newSuite(null, "", "");
  let suite = root;
  let phase = "closed"; // "closed" while the artifact loads, then "collecting", "running", "finished"
  const steps = F.newList();
  let cursor = 0;
  let token = 0; // bumps whenever a step is settled, so late callbacks of an abandoned step are ignored
  let inflight = null; // { step, settle, waitsForDone } of the step being awaited
  let current = -1; // registered index of the running test
  let result = null; // null, or [kind, text] of the running test's first failure
  let registered = 0;
  const subtests = F.newList(); // { index, settled }
  const failedSubtest = { __proto__: null }; // parent index -> name of a failed subtest

  function fail(message) {
    return I.construct(I.Error, [message]);
  }

  function label(name) {
    return typeof name === "string" ? name : typeof name === "function" ? F.functionName(name) : F.formatValue(name);
  }

  function notCollecting(what) {
    if (phase === "closed") return fail(what + " can only be called from the test code, not from the artifact");
    return fail(what + " must be called at the top level of the test code or inside describe(), not while the tests run" +
      (what === "test()" ? " (node:test: use t.test() for a subtest)" : ""));
  }

  /** Registers a test in the current suite; mode "" | "skip" | "only" | "todo". */
  function addTest(name, fn, mode, flavor) {
    if (phase !== "collecting") throw notCollecting("test()");
    if (mode !== "todo" && typeof fn !== "function") throw I.construct(I.TypeError, ["test(name, fn): fn must be a function, got " + F.formatValue(fn)]);
    collected += 1;
    if (collected > MAX_TESTS) throw fail("too many tests (more than " + MAX_TESTS + ")");
    F.append(suite.entries, { __proto__: null, kind: "test", name: label(name), fn, mode, flavor });
  }

  function addSuite(name, fn, mode) {
    if (phase !== "collecting") throw notCollecting("describe()");
    if (typeof fn !== "function") throw I.construct(I.TypeError, ["describe(name, fn): fn must be a function, got " + F.formatValue(fn)]);
    const outer = suite;
    const inner = newSuite(outer, outer.prefix + label(name) + " > ", mode);
    F.append(outer.entries, { __proto__: null, kind: "suite", suite: inner });
    suite = inner;
    try {
      const value = call(fn, undefined, []);
      if (H.isPromise(value)) throw fail("describe() callbacks must be synchronous: register tests with test() inside them and await inside the tests");
    } finally {
      suite = outer;
    }
  }

  function addHook(kind, fn, flavor) {
    if (phase !== "collecting") throw notCollecting(kind + "()");
    if (typeof fn !== "function") throw I.construct(I.TypeError, [kind + "(fn): fn must be a function, got " + F.formatValue(fn)]);
    F.append(suite.hooks[kind], { __proto__: null, fn, flavor });
  }

  function hasOnly(s) {
    for (let i = 0; i < s.entries.length; i++) {
      const entry = s.entries[i];
      if (entry.kind === "test" ? entry.mode === "only" : entry.suite.mode === "only" || hasOnly(entry.suite)) return true;
    }
    return false;
  }

  /** Which tests run, in order: [entry, suite, skipped] triples, with each suite's planned count. */
  function select(s, skipped, only, onlyMode, into) {
    for (let i = 0; i < s.entries.length; i++) {
      const entry = s.entries[i];
      if (entry.kind === "suite") {
        const inner = entry.suite;
        select(inner, skipped || inner.mode === "skip" || inner.mode === "todo", only || inner.mode === "only", onlyMode, into);
        continue;
      }
      const runs = !skipped && entry.mode !== "skip" && entry.mode !== "todo" && (!onlyMode || only || entry.mode === "only");
      if (!runs) continue;
      F.append(into, { __proto__: null, entry, suite: s });
      for (let owner = s; owner !== null; owner = owner.parent) owner.planned += 1;
    }
  }

  function chainOf(s) {
    const chain = F.newList(); // outermost first
    const reversed = F.newList();
    for (let owner = s; owner !== null; owner = owner.parent) F.append(reversed, owner);
    for (let i = reversed.length - 1; i >= 0; i--) F.append(chain, reversed[i]);
    return chain;
  }

  function addStep(kind, fn, flavor, owner, test, name) {
    F.append(steps, { __proto__: null, kind, fn, flavor, suite: owner, test, name });
  }

  function addHookSteps(kind, owner, test, name) {
    const hooks = owner.hooks[kind];
    for (let i = 0; i < hooks.length; i++) addStep(kind, hooks[i].fn, hooks[i].flavor, owner, test, name);
  }

  /** The whole run as a flat list of steps, so that running it is one loop (see drive). */
  function plan() {
    const selected = F.newList();
    select(root, false, false, hasOnly(root), selected);
    for (let t = 0; t < selected.length; t++) {
      const entry = selected[t].entry;
      const owner = selected[t].suite;
      const index = registered;
      registered += 1;
      const name = F.slice(owner.prefix + entry.name, 0, MAX_NAME);
      H.register(nonce, index, name);
      const chain = chainOf(owner);
      addStep("start", undefined, entry.flavor, owner, index, name);
      for (let i = 0; i < chain.length; i++) {
        if (chain[i].left !== -1) continue;
        chain[i].left = chain[i].planned;
        addHookSteps("beforeAll", chain[i], index, name);
      }
      for (let i = 0; i < chain.length; i++) addHookSteps("beforeEach", chain[i], index, name);
      addStep("test", entry.fn, entry.flavor, owner, index, name);
      for (let i = chain.length - 1; i >= 0; i--) addHookSteps("afterEach", chain[i], index, name);
      for (let i = chain.length - 1; i >= 0; i--) {
        chain[i].left -= 1;
        if (chain[i].left === 0) addHookSteps("afterAll", chain[i], index, name);
      }
      addStep("end", undefined, entry.flavor, owner, index, name);
    }
  }

  function begin(step) {
    current = step.test;
    result = null;
    counter.count = 0;
    counter.expected = -1;
    counter.any = false;
    H.started(nonce, current);
    for (let owner = step.suite; owner !== null && result === null; owner = owner.parent) result = owner.failure;
  }

  function end(step) {
    if (result === null && counter.expected >= 0 && counter.count !== counter.expected) {
      result = ["assertion", "expected " + counter.expected + " assertions to be called, but " + counter.count + " were"];
    }
    if (result === null && counter.any && counter.count === 0) result = ["assertion", "expected at least one assertion to be called (expect.hasAssertions), but none was"];
    if (result === null && failedSubtest[step.test] !== undefined) result = ["error", "subtest " + F.formatValue(failedSubtest[step.test]) + " failed"];
    H.record(nonce, step.test, result === null ? "passed" : result[0], result === null ? "" : result[1]);
    current = -1;
  }

  function failure(step, error) {
    const description = D.describeError(error);
    if (step.kind === "test") return description;
    return [description[0], step.kind + " hook failed: " + description[1]];
  }

  function apply(step, outcome) {
    if (outcome === null) return;
    if (step.kind === "beforeAll" && step.suite.failure === null) step.suite.failure = outcome;
    if (result === null) result = outcome;
  }

  function parameterCount(fn) {
    const length = F.ownData(fn, "length");
    return typeof length === "number" ? length : 0;
  }

  function makeDone(settle, step) {
    const done = (error) => {
      if (error === undefined || error === null) settle(null);
      else settle(failure(step, error));
    };
    I.defineProperty(done, "fail", { __proto__: null, value: (message) => settle(failure(step, fail(label(message)))), enumerable: false, configurable: false, writable: false });
    // vitest hands a test context instead of done: test("x", async ({ expect }) => ...).
    I.defineProperty(done, "expect", { __proto__: null, value: extras.expect, enumerable: true, configurable: false, writable: false });
    I.setPrototypeOf(done, null);
    return I.freeze(done);
  }

  function context(index, name) {
    return I.freeze({
      __proto__: null,
      name,
      fullName: name,
      test: (subName, options, fn) => subtest(index, name + " > ", subName, options, fn),
      skip: () => undefined,
      todo: () => undefined,
      diagnostic: (message) => H.log("# " + label(message)),
      assert: extras.assert,
      mock: extras.mock,
      plan: () => {
        throw fail("t.plan() is not available in the sandbox: count with expect.assertions(n), or assert in every path");
      },
    });
  }

  /** Calls a step; true if it finished synchronously (its outcome applied), false if it is awaited. */
  function invoke(step) {
    const myToken = (token += 1);
    let synchronous = true;
    let finishedSynchronously = false;
    const settle = (outcome) => {
      if (token !== myToken) return;
      token += 1;
      inflight = null;
      apply(step, outcome);
      if (synchronous) finishedSynchronously = true;
      else drive();
    };
    inflight = { __proto__: null, step, settle, waitsForDone: false };
    // vitest passes a test context, never done; jest passes done; node:test passes (t, done).
    const usesDone = step.flavor !== "vitest" && parameterCount(step.fn) >= (step.flavor === "node" ? 2 : 1);
    const done = makeDone(settle, step);
    const args = step.flavor === "node" ? [context(step.test, step.name), done] : [done];
    let value;
    try {
      value = call(step.fn, undefined, args);
    } catch (error) {
      settle(failure(step, error));
    }
    if (token === myToken) {
      if (H.isPromise(value)) call(I.promiseThen, value, [() => settle(null), (error) => settle(failure(step, error))]);
      else if (!usesDone) settle(null);
      else inflight.waitsForDone = true;
    }
    synchronous = false;
    return finishedSynchronously;
  }

  /** Runs steps until one has to be awaited (its settlement calls drive again) or the run ends. */
  function drive() {
    while (cursor < steps.length) {
      const step = steps[cursor];
      cursor += 1;
      if (step.kind === "start") begin(step);
      else if (step.kind === "end") end(step);
      else if (result !== null && (step.kind === "beforeEach" || step.kind === "test")) continue;
      else if (!invoke(step)) return;
    }
    finish();
  }

  function finish() {
    if (phase !== "running") return;
    for (let i = 0; i < subtests.length; i++) {
      if (!subtests[i].settled) {
        subtests[i].settled = true;
        H.record(nonce, subtests[i].index, "error", "the subtest never finished before the tests ended (await t.test(...))");
      }
    }
    phase = "finished";
    H.done(nonce, registered);
  }

  /** node:test's t.test(name, [options], fn): runs now, reported on its own; resolves when it ends. */
  function subtest(parent, parentName, name, options, fn) {
    if (phase !== "running") throw fail("t.test() can only be called while its parent test runs");
    const body = typeof name === "function" ? name : typeof options === "function" ? options : fn;
    const settings = typeof options === "object" && options !== null ? options : undefined;
    if (typeof body !== "function") throw I.construct(I.TypeError, ["t.test(name, fn): fn must be a function, got " + F.formatValue(body)]);
    const settled = call(I.promiseResolve, I.Promise, [undefined]);
    if (settings !== undefined && (settings.skip || settings.todo)) return settled;
    if (registered >= MAX_TESTS) throw fail("too many tests (more than " + MAX_TESTS + ")");
    const fullName = F.slice(parentName + label(typeof name === "function" ? F.functionName(name) : name), 0, MAX_NAME);
    const index = registered;
    registered += 1;
    H.register(nonce, index, fullName);
    const record = { __proto__: null, index, settled: false };
    F.append(subtests, record);
    return I.construct(I.Promise, [(resolve) => {
      const finishWith = (outcome) => {
        if (record.settled) return;
        record.settled = true;
        if (outcome !== null && failedSubtest[parent] === undefined) failedSubtest[parent] = fullName;
        H.record(nonce, index, outcome === null ? "passed" : outcome[0], outcome === null ? "" : outcome[1]);
        resolve(undefined);
      };
      const step = { __proto__: null, kind: "test", suite: root, test: index, name: fullName };
      const done = makeDone(finishWith, step);
      let value;
      try {
        value = call(body, undefined, [context(index, fullName), done]);
      } catch (error) {
        finishWith(D.describeError(error));
        return;
      }
      if (H.isPromise(value)) call(I.promiseThen, value, [() => finishWith(null), (error) => finishWith(D.describeError(error))]);
      else if (parameterCount(body) < 2) finishWith(null);
    }]);
  }

  /** Opens collection: called by the host when the test code starts (the artifact has loaded). */
  function open() {
    if (phase === "closed") phase = "collecting";
  }

  function runAll() {
    if (phase !== "collecting") return;
    phase = "running";
    plan();
    drive();
  }

  function neverFinished(step, waitsForDone) {
    const what = step.kind === "test" ? "the test" : "the " + step.kind + " hook";
    return waitsForDone
      ? what + " never finished: it takes a done callback that was never called"
      : what + " never finished: it waits for a promise that can never settle (no timers or other pending work are left)";
  }

  /** Called by the host when nothing is left to run: the awaited step can never settle. */
  function abandon() {
    if (phase !== "running" || inflight === null) return false;
    const stuck = inflight;
    stuck.settle(["error", neverFinished(stuck.step, stuck.waitsForDone)]);
    return true;
  }

  /** An error thrown by a timer or microtask callback fails the running step's test, or the run. */
  function uncaught(error, source) {
    const description = D.describeError(error);
    const text = "uncaught error in a " + source + " callback: " + description[1];
    const kind = description[0];
    if (kind === "memory" || kind === "stack" || kind === "interrupted" || phase !== "running" || inflight === null) {
      H.uncaught(nonce, kind, text);
      return;
    }
    inflight.settle([kind, text]);
  }

  return I.freeze({ __proto__: null, addTest, addSuite, addHook, open, runAll, abandon, uncaught });
}
