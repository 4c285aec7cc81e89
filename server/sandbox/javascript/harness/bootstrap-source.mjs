import { createAssert } from "./assert.mjs";
import { createAssertionErrors } from "./assertion-error.mjs";
import { createErrorDescriber } from "./describe-error.mjs";
import { createEquality } from "./equality.mjs";
import { createExpect } from "./expect.mjs";
import { createFormatter } from "./format.mjs";
import { installGlobalGuards } from "./global-guards.mjs";
import { createGuestGlobals } from "./guest-globals.mjs";
import { captureIntrinsics } from "./intrinsics.mjs";
import { createMatchers } from "./matchers.mjs";
import { createRunner } from "./runner.mjs";

/** One console.log's text is cut here in the sandbox; the host then enforces the output limit. */
const MAX_CONSOLE_CHARS = 4 * 1024 * 1024;

/** Names the harness defines on the sandbox's global object, locked (see bootstrap below). */
export const HARNESS_GLOBALS = ["test", "it", "describe", "expect", "assert", "console", "setTimeout", "clearTimeout", "setInterval", "clearInterval", "queueMicrotask"];

/**
 * The source of the harness's bootstrap function, evaluated inside QuickJS before the artifact.
 * The guest modules are spliced in by their source text (Function.prototype.toString of the
 * functions in ./*.mjs, loaded unbundled by Node), so they are ordinary, lintable files.
 *
 * bootstrap(host, nonce) captures the intrinsics and the host functions,
 * defines the locked globals and returns the controls only the host holds. The nonce is an
 * argument, never part of the source text, so reading the harness's source reveals nothing.
 * Its third parameter, `undefined`, is never passed: every `undefined` in the harness is that
 * parameter, so no redefinition of the global `undefined` can reach the harness.
 */
export function harnessSource() {
  return `(function bootstrap(host, nonce, undefined) {
  "use strict";
  const I = (${captureIntrinsics})(globalThis);
  (${installGlobalGuards})(I);
  const H = I.freeze({ __proto__: null, register: host.register, record: host.record, started: host.started, done: host.done,
    uncaught: host.uncaught, isPromise: host.isPromise, log: host.log, schedule: host.schedule, cancel: host.cancel, clock: host.clock });
  const F = (${createFormatter})(I);
  const deepEqual = (${createEquality})(I, F).deepEqual;
  const E = (${createAssertionErrors})(I);
  const D = (${createErrorDescriber})(I, F, E.isAssertion);
  const M = (${createMatchers})(I, F, deepEqual);
  const expect = (${createExpect})(I, F, E, M);
  const assert = (${createAssert})(I, F, E, deepEqual, M);
  const R = (${createRunner})(I, F, D, H, nonce);
  const G = (${createGuestGlobals})(I, F, D, H, R, ${MAX_CONSOLE_CHARS});
  const values = [R.test, R.test, R.describe, expect, assert, G.console, G.setTimeout, G.clearTimeout, G.setInterval, G.clearInterval, G.queueMicrotask];
  const names = ${JSON.stringify(HARNESS_GLOBALS)};
  // Locked as non-configurable getters, not as read-only data properties: QuickJS lets
  // Object.defineProperty change the value of a non-configurable, non-writable data property
  // of the global object, but refuses every change to a non-configurable accessor.
  for (let i = 0; i < names.length; i++) {
    const value = I.freeze(values[i]);
    I.defineProperty(globalThis, names[i], { __proto__: null, get: I.freeze(() => value), enumerable: false, configurable: false });
  }
  /** Which helper no longer resolves to the harness's own (given the values the names resolve to now), or "". */
  function replacedHelper(seen) {
    for (let i = 0; i < names.length; i++) if (seen[i] !== values[i]) return names[i];
    return "";
  }
  return I.freeze({ __proto__: null, runAll: R.runAll, abandon: R.abandon, runTimer: G.runTimer, describeError: D.describeError, replacedHelper });
})`;
}

/** Global code whose value is what the helper names resolve to, for bootstrap's replacedHelper. */
export const HELPER_PROBE = `[${HARNESS_GLOBALS.join(", ")}]`;
