/**
 * GUEST CODE (see intrinsics.mjs): self-contained, uses only `I`, the formatter `F`, the
 * assertion errors `E`, the matcher table `M`, the runner's assertion `counter` (for
 * expect.assertions / hasAssertions) and the asymmetric matcher maker (expect.any & co.).
 *
 * expect(actual, label?) with .not, .resolves and .rejects. Matcher objects share one frozen,
 * null-prototype method table and keep their state in a private WeakMap, so neither the
 * artifact nor a test can change what toBe & co. do for everyone else.
 */
export function createExpect(I, F, E, M, counter, asymmetric) {
  "use strict";
  const call = I.apply;
  const states = new I.WeakMap();

  function stateOf(matchers) {
    const state = (typeof matchers === "object" && matchers !== null) ? call(I.weakMapGet, states, [matchers]) : undefined;
    if (state === undefined) throw I.construct(I.TypeError, ["expect(...) matchers must be called on the object expect() returned"]);
    return state;
  }

  function make(actual, label, not, mode) {
    const matchers = { __proto__: table };
    call(I.weakMapSet, states, [matchers, { __proto__: null, actual, label, not, mode }]);
    return matchers;
  }

  function check(state, name, actual, args, rejected) {
    const result = M.matchers[name](actual, args, rejected);
    if (result[0] !== state.not) return;
    const prefix = typeof state.label === "string" && state.label !== "" ? state.label + ": " : "";
    throw E.assertionError(prefix + result[1](state.not));
  }

  function settle(state, name, args) {
    const promise = call(I.promiseResolve, I.Promise, [state.actual]);
    const wantsRejection = state.mode === "rejects";
    return new I.Promise((resolve, reject) => {
      const outcome = (rejected) => (value) => {
        try {
          if (rejected !== wantsRejection) {
            throw E.assertionError(wantsRejection
              ? "expected the promise to reject, but it resolved with " + M.show(value)
              : "expected the promise to resolve, but it rejected with " + M.show(value));
          }
          check(state, name, value, args, rejected);
          resolve(undefined);
        } catch (error) {
          reject(error);
        }
      };
      call(I.promiseThen, promise, [outcome(false), outcome(true)]);
    });
  }

  const table = { __proto__: null };
  const names = I.keys(M.matchers);
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    table[name] = function (...args) {
      const state = stateOf(this);
      counter.count += 1;
      if (state.mode !== "") return settle(state, name, args);
      check(state, name, state.actual, args, false);
      return undefined;
    };
  }
  const modifier = (change) => ({
    __proto__: null,
    get() {
      const state = stateOf(this);
      return change(state);
    },
    enumerable: false,
    configurable: false,
  });
  I.defineProperty(table, "not", modifier((s) => make(s.actual, s.label, !s.not, s.mode)));
  I.defineProperty(table, "resolves", modifier((s) => make(s.actual, s.label, s.not, "resolves")));
  I.defineProperty(table, "rejects", modifier((s) => make(s.actual, s.label, s.not, "rejects")));
  I.freeze(table);

  function expect(actual, label) {
    return make(actual, label, false, "");
  }
  const statics = {
    __proto__: null,
    assertions: (count) => {
      counter.expected = typeof count === "number" ? count : -1;
    },
    hasAssertions: () => {
      counter.any = true;
    },
    any: (type) => {
      if (typeof type !== "function") throw I.construct(I.TypeError, ["expect.any(type) needs a class or constructor, got " + F.formatValue(type)]);
      return asymmetric("Any<" + F.functionName(type) + ">", (value) => {
        if (type === I.global.Number) return typeof value === "number" || value instanceof type;
        if (type === I.global.String) return typeof value === "string" || value instanceof type;
        if (type === I.global.Boolean) return typeof value === "boolean" || value instanceof type;
        if (type === I.global.BigInt) return typeof value === "bigint";
        if (type === I.global.Symbol) return typeof value === "symbol";
        if (type === I.global.Function) return typeof value === "function";
        if (type === I.global.Object) return typeof value === "object" && value !== null;
        return value instanceof type;
      });
    },
    anything: () => asymmetric("Anything", (value) => value !== null && value !== undefined),
    stringContaining: (text) => asymmetric("StringContaining " + F.formatValue(text),
      (value) => typeof value === "string" && call(I.stringIndexOf, value, [I.String(text)]) !== -1),
    stringMatching: (pattern) => asymmetric("StringMatching " + F.formatValue(pattern),
      (value) => typeof value === "string" && (M.isRegExp(pattern) ? F.matches(pattern, value) : call(I.stringIndexOf, value, [I.String(pattern)]) !== -1)),
    arrayContaining: (items) => asymmetric("ArrayContaining " + F.formatValue(items), (value) => {
      if (!I.isArray(value) || !I.isArray(items)) return false;
      for (let i = 0; i < items.length; i++) if (!M.matchers.toContainEqual(value, [items[i]])[0]) return false;
      return true;
    }),
    objectContaining: (shape) => asymmetric("ObjectContaining " + F.formatValue(shape),
      (value) => M.matchers.toMatchObject(value, [shape])[0]),
    unreachable: (message) => {
      throw E.assertionError(typeof message === "string" ? message : "expect.unreachable() was reached");
    },
    // Soft assertions fail the test at once here: stricter than vitest, never more lenient.
    soft: (actual, label) => expect(actual, label),
    closeTo: (number, digits) => asymmetric("CloseTo " + F.formatValue(number), (value) => M.matchers.toBeCloseTo(value, [number, digits])[0]),
  };
  const staticNames = I.keys(statics);
  for (let i = 0; i < staticNames.length; i++) {
    I.defineProperty(expect, staticNames[i], { __proto__: null, value: I.freeze(statics[staticNames[i]]), writable: false, enumerable: true, configurable: false });
  }
  // A null prototype: a member expect lacks (expect.extend) is undefined, never one the artifact planted.
  I.setPrototypeOf(expect, null);
  return I.freeze(expect);
}
