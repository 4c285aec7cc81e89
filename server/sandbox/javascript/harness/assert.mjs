/**
 * GUEST CODE (see intrinsics.mjs): self-contained, uses only `I`, the formatter `F`, the
 * assertion errors `E`, `deepEqual` and the matcher helpers `M`.
 *
 * A node:assert-like `assert(value, message?)` with equal / strictEqual / deepEqual /
 * notEqual / throws / rejects & co. A given message replaces the generated one, as in Node.
 */
export function createAssert(I, F, E, deepEqual, M) {
  "use strict";
  const call = I.apply;
  const show = M.show;

  function ensure(pass, message, explain) {
    if (pass) return;
    throw E.assertionError(typeof message === "string" ? message : message !== undefined ? show(message) : explain());
  }

  function assert(value, message) {
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
    ok: assert,
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
    fail: (message) => ensure(false, message, () => "assert.fail() was called"),
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

  const names = I.keys(methods);
  for (let i = 0; i < names.length; i++) {
    I.defineProperty(assert, names[i], { __proto__: null, value: methods[names[i]], writable: false, enumerable: true, configurable: false });
  }
  return I.freeze(assert);
}
