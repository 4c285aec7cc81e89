import { createAssert } from "./assert.mjs";
import { createAssertionErrors } from "./assertion-error.mjs";
import { createErrorDescriber } from "./describe-error.mjs";
import { createEquality } from "./equality.mjs";
import { createExpect } from "./expect.mjs";
import { createFormatter } from "./format.mjs";
import { installGlobalGuards } from "./global-guards.mjs";
import { createGuestGlobals } from "./guest-globals.mjs";
import { createInterop } from "./interop.mjs";
import { captureIntrinsics } from "./intrinsics.mjs";
import { createMatchers } from "./matchers.mjs";
import { createMocks } from "./mocks.mjs";
import { createModules } from "./modules.mjs";
import { createRunner } from "./runner.mjs";
import { createTestApi } from "./test-api.mjs";

/** One console.log's text is cut here in the sandbox; the host then enforces the output limit. */
const MAX_CONSOLE_CHARS = 4 * 1024 * 1024;

/** Globals the harness defines for everyone (artifact and tests), locked (see bootstrap below). */
export const HARNESS_GLOBALS = ["console", "setTimeout", "clearTimeout", "setInterval", "clearInterval", "queueMicrotask"];

/**
 * Names the test code sees without importing anything (001's global style, jest's globals).
 * They are not globals: they are constants of the function the tests run in (session.mjs),
 * so nothing the artifact does to the global object can change what the tests call.
 */
export const TEST_HELPERS = [
  "test", "it", "describe", "expect", "assert", "beforeAll", "afterAll", "beforeEach", "afterEach", "before", "after",
  "xit", "xtest", "xdescribe", "fit", "fdescribe", "jest", "vi",
];

const FACTORIES = { captureIntrinsics, installGlobalGuards, createFormatter, createEquality, createAssertionErrors, createErrorDescriber, createMocks, createMatchers, createExpect, createAssert, createRunner, createTestApi, createGuestGlobals, createInterop, createModules };

/**
 * The guest modules as sources, one script each, by their source text (Function.prototype.
 * toString of the functions in ./*.mjs, loaded unbundled by Node), so they are ordinary,
 * lintable files. Each is evaluated on its own, before the artifact, and handed to bootstrap:
 * QuickJS compiles one script holding them all about twice as slowly (it resolves names
 * through every enclosing scope), and this is most of a worker's preparation. Each factory
 * gets its own `undefined` parameter, for the reason given below.
 */
export function harnessFactorySources() {
  return Object.entries(FACTORIES).map(([name, factory]) => [name, `(function (undefined) { "use strict"; return (${factory}); })()`]);
}

/**
 * The source of the harness's bootstrap function, evaluated inside QuickJS before the artifact.
 *
 * bootstrap(host, nonce, factories) captures the intrinsics and the host functions,
 * defines the locked globals and the artifact's CommonJS globals, and returns the controls
 * only the host holds. The nonce is an argument, never part of the source text, so reading the
 * harness's source reveals nothing. Its third parameter, `undefined`, is never passed: every
 * `undefined` in the harness is that parameter, so no redefinition of the global `undefined`
 * can reach the harness.
 */
export function harnessSource() {
  return `(function bootstrap(host, nonce, factories, undefined) {
  "use strict";
  const { captureIntrinsics, installGlobalGuards, createFormatter, createEquality, createAssertionErrors, createErrorDescriber, createMocks, createMatchers, createExpect, createAssert, createRunner, createTestApi, createGuestGlobals, createInterop, createModules } = factories;
  const I = captureIntrinsics(globalThis);
  installGlobalGuards(I);
  const H = I.freeze({ __proto__: null, register: host.register, record: host.record, started: host.started, done: host.done,
    uncaught: host.uncaught, isPromise: host.isPromise, log: host.log, schedule: host.schedule, cancel: host.cancel, clock: host.clock });
  const F = createFormatter(I);
  const equality = createEquality(I, F);
  const deepEqual = equality.deepEqual;
  const E = createAssertionErrors(I);
  const D = createErrorDescriber(I, F, E.isAssertion);
  const Mk = createMocks(I, F);
  const M = createMatchers(I, F, deepEqual, Mk);
  const counter = { __proto__: null, count: 0, expected: -1, any: false };
  const expect = createExpect(I, F, E, M, counter, equality.asymmetric);
  const assert = createAssert(I, F, E, deepEqual, M);
  const R = createRunner(I, F, D, H, nonce, counter, I.freeze({ __proto__: null, assert: assert.strict, mock: Mk.nodeMock, expect }));
  const T = createTestApi(I, F, R);
  const G = createGuestGlobals(I, F, D, H, R, ${MAX_CONSOLE_CHARS});
  const J = T.jest;
  const N = T.node;
  const V = T.vitest;
  const frameworkHooks = { beforeAll: J.beforeAll, afterAll: J.afterAll, beforeEach: J.beforeEach, afterEach: J.afterEach };
  // node:test's module is its test function with the rest as properties (as in Node).
  const nodeTest = function test(name, options, fn) {
    return I.apply(N.test, undefined, [name, options, fn]);
  };
  const provided = {
    __proto__: null,
    "assert": assert.legacy, "node:assert": assert.legacy, "assert/strict": assert.strict, "node:assert/strict": assert.strict,
    "node:test": nodeTest,
    "vitest": I.freeze({ __proto__: null, test: V.test, it: V.it, describe: V.describe, suite: V.describe, expect, vi: Mk.vi,
      beforeAll: V.beforeAll, afterAll: V.afterAll, beforeEach: V.beforeEach, afterEach: V.afterEach }),
    "@jest/globals": I.freeze({ __proto__: null, test: J.test, it: J.it, describe: J.describe, expect, jest: Mk.jest, ...frameworkHooks }),
    "tslib": createInterop(I),
  };
  const nodeMembers = { __proto__: null, test: N.test, it: N.it, describe: N.describe, suite: N.suite, before: N.before, after: N.after,
    beforeEach: N.beforeEach, afterEach: N.afterEach, skip: N.test.skip, only: N.test.only, todo: N.test.todo, mock: Mk.nodeMock };
  const nodeNames = I.keys(nodeMembers);
  for (let i = 0; i < nodeNames.length; i++) {
    I.defineProperty(nodeTest, nodeNames[i], { __proto__: null, value: nodeMembers[nodeNames[i]], writable: false, enumerable: true, configurable: false });
  }
  I.setPrototypeOf(nodeTest, null);
  I.freeze(nodeTest);
  const Mods = createModules(I, F, provided);
  const helperValues = { __proto__: null, test: J.test, it: J.it, describe: J.describe, expect, assert: assert.legacy, ...frameworkHooks,
    before: J.beforeAll, after: J.afterAll, xit: J.xit, xtest: J.xtest, xdescribe: J.xdescribe, fit: J.fit, fdescribe: J.fdescribe, jest: Mk.jest, vi: Mk.vi };
  const helpers = I.freeze(helperValues);
  const values = [G.console, G.setTimeout, G.clearTimeout, G.setInterval, G.clearInterval, G.queueMicrotask];
  const names = ${JSON.stringify(HARNESS_GLOBALS)};
  // Locked as non-configurable getters, not as read-only data properties: QuickJS lets
  // Object.defineProperty change the value of a non-configurable, non-writable data property
  // of the global object, but refuses every change to a non-configurable accessor.
  for (let i = 0; i < names.length; i++) {
    const value = I.freeze(values[i]);
    I.defineProperty(globalThis, names[i], { __proto__: null, get: I.freeze(() => value), enumerable: false, configurable: false });
  }
  Mods.installArtifactGlobals();
  /** Which helper no longer resolves to the harness's own (given the values the names resolve to now), or "". */
  function replacedHelper(seen) {
    for (let i = 0; i < names.length; i++) if (seen[i] !== values[i]) return names[i];
    return "";
  }
  function loadTests(outer) {
    R.open();
    return Mods.loadTests(outer, helpers);
  }
  return I.freeze({ __proto__: null, runAll: R.runAll, abandon: R.abandon, runTimer: G.runTimer, describeError: D.describeError, replacedHelper,
    artifactLoaded: Mods.artifactLoaded, loadTests });
})`;
}

/** Global code whose value is what the helper names resolve to, for bootstrap's replacedHelper. */
export const HELPER_PROBE = `[${HARNESS_GLOBALS.join(", ")}]`;

/**
 * The function the tests run in, around their code: line 1 binds the helpers as constants and
 * opens the CommonJS wrapper; the code starts on line 2 (TESTS_WRAPPER_LINES in
 * worker-protocol.ts, which maps positions back).
 */
export function wrapTests(code, topLevelAwait) {
  const bindings = TEST_HELPERS.map((name) => `${name} = __sandbox.${name}`).join(", ");
  // A shebang is allowed only at the very start of a script: inside the function it becomes a comment of the same length.
  const body = code.startsWith("#!") ? `//${code.slice(2)}` : code;
  return `(function (__sandbox) { const ${bindings}; return ${topLevelAwait ? "async " : ""}function (exports, require, module, __filename, __dirname) {\n${body}\n}; })`;
}
