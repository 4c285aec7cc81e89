/**
 * GUEST CODE (see intrinsics.mjs): self-contained, uses only `I`, the formatter `F`, the
 * assertion errors `E`, `deepEqual` and the matcher helpers `M`.
 *
 * node:assert as `legacy` (assert(value, message?) with equal == / strictEqual / deepEqual /
 * notEqual / throws / rejects & co.) and `strict` (node:assert/strict, assert.strict: equal is
 * strictEqual, deepEqual is deepStrictEqual). A given message replaces the generated one, as
 * in Node. Both are frozen functions: code cannot change what another module imported.
 */
export function createAssert(I, F, E, deepEqual, M) {
  "use strict";
  const call = I.apply;
  const show = M.show;

  function ensure(pass, message, explain) {
    if (pass) return;
    throw E.assertionError(typeof message === "string" ? message : message !== undefined ? show(message) : explain());
  }

  function ok(value, message) {
    ensure(!!value, message, () => "expected " + show(value) + " to be truthy");
  }

  function threw(fn) {
    try {
      fn();
    } catch (error) {
      return [true, error];
    }
    return [false, undefined];
  }

  const methods = {
    __proto__: null,
    ok,
    equal: (a, b, message) => ensure(a == b, message, () => "expected " + show(a) + " to equal " + show(b) + " (==)"),
    notEqual: (a, b, message) => ensure(a != b, message, () => "expected " + show(a) + " not to equal " + show(b) + " (!=)"),
    strictEqual: (a, b, message) => ensure(I.is(a, b), message, () => "expected " + show(a) + " to strictly equal " + show(b)),
    notStrictEqual: (a, b, message) => ensure(!I.is(a, b), message, () => "expected " + show(a) + " not to strictly equal " + show(b)),
    deepEqual: (a, b, message) => ensure(deepEqual(a, b, false), message, () => "expected " + show(a) + " to deeply equal " + show(b)),
    notDeepEqual: (a, b, message) => ensure(!deepEqual(a, b, false), message, () => "expected " + show(a) + " not to deeply equal " + show(b)),
    deepStrictEqual: (a, b, message) => ensure(deepEqual(a, b, true), message, () => "expected " + show(a) + " to deeply and strictly equal " + show(b)),
    notDeepStrictEqual: (a, b, message) => ensure(!deepEqual(a, b, true), message, () => "expected " + show(a) + " not to deeply and strictly equal " + show(b)),
    match: (text, pattern, message) => ensure(typeof text === "string" && M.isRegExp(pattern) && F.matches(pattern, text), message,
      () => "expected " + show(text) + " to match " + show(pattern)),
    doesNotMatch: (text, pattern, message) => ensure(typeof text === "string" && M.isRegExp(pattern) && !F.matches(pattern, text), message,
      () => "expected " + show(text) + " not to match " + show(pattern)),
    fail: (message) => ensure(false, message, () => "assert.fail() was called"),
    ifError: (value) => {
      if (value === null || value === undefined) return;
      if (F.isError(value)) throw value;
      throw E.assertionError("ifError got unwanted value: " + show(value));
    },
    throws(fn, expected, message) {
      if (typeof expected === "string" && message === undefined) return methods.throws(fn, undefined, expected);
      if (typeof fn !== "function") throw E.assertionError("assert.throws needs a function to call, got " + show(fn));
      const result = threw(fn);
      ensure(result[0] && M.thrownMatches(result[1], expected), message, () => result[0]
        ? "expected function to throw" + M.describeExpectation(expected) + ", but it threw " + show(result[1])
        : "expected function to throw" + M.describeExpectation(expected) + ", but it did not throw");
    },
    doesNotThrow(fn, message) {
      if (typeof fn !== "function") throw E.assertionError("assert.doesNotThrow needs a function to call, got " + show(fn));
      const result = threw(fn);
      ensure(!result[0], message, () => "expected function not to throw, but it threw " + show(result[1]));
    },
    rejects(promiseOrFn, expected, message) {
      const promise = call(I.promiseResolve, I.Promise, [typeof promiseOrFn === "function" ? promiseOrFn() : promiseOrFn]);
      return new I.Promise((resolve, reject) => {
        const settle = (fn) => (value) => {
          try {
            fn(value);
            resolve(undefined);
          } catch (error) {
            reject(error);
          }
        };
        call(I.promiseThen, promise, [
          settle((value) => ensure(false, message, () => "expected the promise to reject, but it resolved with " + show(value))),
          settle((reason) => ensure(M.thrownMatches(reason, expected), message,
            () => "expected the promise to reject with" + M.describeExpectation(expected) + ", but it rejected with " + show(reason))),
        ]);
      });
    },
  };

  methods.doesNotReject = (promiseOrFn, message) => {
    const promise = call(I.promiseResolve, I.Promise, [typeof promiseOrFn === "function" ? promiseOrFn() : promiseOrFn]);
    return I.construct(I.Promise, [(resolve, reject) => {
      call(I.promiseThen, promise, [() => resolve(undefined), (reason) => {
        try {
          ensure(false, message, () => "expected the promise not to reject, but it rejected with " + show(reason));
        } catch (error) {
          reject(error);
        }
      }]);
    }]);
  };

  const strictMethods = {
    __proto__: null,
    equal: methods.strictEqual,
    notEqual: methods.notStrictEqual,
    deepEqual: methods.deepStrictEqual,
    notDeepEqual: methods.notDeepStrictEqual,
  };

  function build(overrides) {
    const assert = (value, message) => ok(value, message);
    const names = I.keys(methods);
    for (let i = 0; i < names.length; i++) {
      const value = overrides[names[i]] === undefined ? methods[names[i]] : overrides[names[i]];
      I.defineProperty(assert, names[i], { __proto__: null, value, writable: false, enumerable: true, configurable: false });
    }
    return assert;
  }

  // Null prototypes: a method this assert lacks is undefined, never something the artifact
  // planted on Function.prototype.
  const legacy = build({ __proto__: null });
  const strict = build(strictMethods);
  I.defineProperty(legacy, "strict", { __proto__: null, value: strict, writable: false, enumerable: true, configurable: false });
  I.defineProperty(strict, "strict", { __proto__: null, value: strict, writable: false, enumerable: true, configurable: false });
  I.setPrototypeOf(legacy, null);
  I.setPrototypeOf(strict, null);
  return I.freeze({ __proto__: null, legacy: I.freeze(legacy), strict: I.freeze(strict) });
}
