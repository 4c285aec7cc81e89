/**
 * GUEST CODE (see intrinsics.mjs): self-contained, uses only `I` and the formatter `F`.
 *
 * Mock functions for jest/vitest (`jest.fn()`, `vi.fn()`, `spyOn`), recorded in private
 * null-prototype lists that the toHaveBeenCalled... matchers read; `fn.mock.calls` is a copy
 * for the test to read. What the sandbox cannot offer (fake timers: its timers are already
 * virtual; module mocking; node:test's mock) fails with a message saying so.
 */
export function createMocks(I, F) {
  "use strict";
  const call = I.apply;
  const states = new I.WeakMap();
  const all = F.newList();

  function unavailable(name, advice) {
    return () => {
      throw I.construct(I.Error, [name + " is not available in the sandbox" + (advice ? ": " + advice : "")]);
    };
  }

  function takeFirst(list) {
    const first = list[0];
    for (let i = 1; i < list.length; i++) list[i - 1] = list[i];
    list.length -= 1;
    return first;
  }

  function stateOf(value) {
    return typeof value === "function" ? call(I.weakMapGet, states, [value]) : undefined;
  }

  function chainable(mock, state, name, change) {
    I.defineProperty(mock, name, {
      __proto__: null,
      value: (...args) => {
        call(change, undefined, [state, args]);
        return mock;
      },
      writable: true, enumerable: false, configurable: true,
    });
  }

  function settledWith(value, rejected) {
    return () => (rejected ? call(I.promiseReject, I.Promise, [value]) : call(I.promiseResolve, I.Promise, [value]));
  }

  function fn(implementation) {
    const state = { __proto__: null, calls: F.newList(), results: F.newList(), impl: implementation, once: F.newList(), name: "jest.fn()", restore: undefined };
    const view = { calls: [], results: [], instances: [], lastCall: undefined };
    const mock = function (...args) {
      F.append(state.calls, args);
      view.calls[view.calls.length] = args;
      view.lastCall = args;
      const impl = state.once.length > 0 ? takeFirst(state.once) : state.impl;
      const result = { type: "incomplete", value: undefined };
      F.append(state.results, result);
      view.results[view.results.length] = result;
      if (new.target !== undefined) view.instances[view.instances.length] = this;
      if (typeof impl !== "function") {
        result.type = "return";
        return undefined;
      }
      try {
        result.value = new.target !== undefined ? I.construct(impl, args, new.target) : call(impl, this, args);
        result.type = "return";
        return result.value;
      } catch (error) {
        result.type = "throw";
        result.value = error;
        throw error;
      }
    };
    call(I.weakMapSet, states, [mock, state]);
    F.append(all, mock);
    I.defineProperty(mock, "mock", { __proto__: null, get: () => view, enumerable: false, configurable: true });
    I.defineProperty(mock, "_isMockFunction", { __proto__: null, value: true, enumerable: false, configurable: true });
    const clear = (s) => {
      s.calls = F.newList();
      s.results = F.newList();
      view.calls = [];
      view.results = [];
      view.instances = [];
      view.lastCall = undefined;
    };
    chainable(mock, state, "mockImplementation", (s, a) => { s.impl = a[0]; });
    chainable(mock, state, "mockImplementationOnce", (s, a) => F.append(s.once, a[0]));
    chainable(mock, state, "mockReturnValue", (s, a) => { s.impl = () => a[0]; });
    chainable(mock, state, "mockReturnValueOnce", (s, a) => F.append(s.once, () => a[0]));
    chainable(mock, state, "mockResolvedValue", (s, a) => { s.impl = settledWith(a[0], false); });
    chainable(mock, state, "mockResolvedValueOnce", (s, a) => F.append(s.once, settledWith(a[0], false)));
    chainable(mock, state, "mockRejectedValue", (s, a) => { s.impl = settledWith(a[0], true); });
    chainable(mock, state, "mockRejectedValueOnce", (s, a) => F.append(s.once, settledWith(a[0], true)));
    chainable(mock, state, "mockReturnThis", (s) => { s.impl = function () { return this; }; });
    chainable(mock, state, "mockName", (s, a) => { s.name = I.String(a[0]); });
    chainable(mock, state, "mockClear", clear);
    chainable(mock, state, "mockReset", (s) => {
      clear(s);
      s.impl = undefined;
      s.once = F.newList();
    });
    chainable(mock, state, "mockRestore", (s) => {
      clear(s);
      if (s.restore !== undefined) s.restore();
    });
    I.defineProperty(mock, "getMockName", { __proto__: null, value: () => state.name, writable: true, enumerable: false, configurable: true });
    I.defineProperty(mock, "getMockImplementation", { __proto__: null, value: () => state.impl, writable: true, enumerable: false, configurable: true });
    return mock;
  }

  function spyOn(object, method) {
    if ((typeof object !== "object" && typeof object !== "function") || object === null) {
      throw I.construct(I.TypeError, ["spyOn(object, method) needs an object, got " + F.formatValue(object)]);
    }
    const original = object[method];
    if (typeof original !== "function") throw I.construct(I.TypeError, ["spyOn: " + F.formatValue(method) + " is not a function on the object"]);
    const spy = fn(function (...args) {
      return call(original, this, args);
    });
    const state = stateOf(spy);
    state.name = I.String(method);
    const hadOwn = I.hasOwn(object, method);
    state.restore = () => {
      if (hadOwn) object[method] = original;
      else delete object[method];
    };
    object[method] = spy;
    return spy;
  }

  function forEachMock(action) {
    for (let i = 0; i < all.length; i++) all[i][action]();
  }

  const timersAdvice = "the sandbox's timers are already virtual (a setTimeout of an hour takes no real time), so await a promise around setTimeout instead";
  function framework(name) {
    return I.freeze({
      __proto__: null,
      fn,
      spyOn,
      isMockFunction: (value) => stateOf(value) !== undefined,
      clearAllMocks: () => forEachMock("mockClear"),
      resetAllMocks: () => forEachMock("mockReset"),
      restoreAllMocks: () => forEachMock("mockRestore"),
      useFakeTimers: unavailable(name + ".useFakeTimers", timersAdvice),
      useRealTimers: () => undefined,
      advanceTimersByTime: unavailable(name + ".advanceTimersByTime", timersAdvice),
      advanceTimersByTimeAsync: unavailable(name + ".advanceTimersByTimeAsync", timersAdvice),
      runAllTimers: unavailable(name + ".runAllTimers", timersAdvice),
      runOnlyPendingTimers: unavailable(name + ".runOnlyPendingTimers", timersAdvice),
      setSystemTime: unavailable(name + ".setSystemTime", timersAdvice),
      mock: unavailable(name + ".mock (module mocking)", "the artifact is the only module; pass collaborators in as arguments"),
      doMock: unavailable(name + ".doMock (module mocking)"),
      stubGlobal: unavailable(name + ".stubGlobal"),
    });
  }

  const nodeUnavailable = (member) => unavailable("mock." + member + " (node:test)", "use a plain function that records its calls");
  const nodeMock = I.freeze({
    __proto__: null,
    fn: nodeUnavailable("fn"),
    method: nodeUnavailable("method"),
    getter: nodeUnavailable("getter"),
    setter: nodeUnavailable("setter"),
    module: nodeUnavailable("module"),
    reset: nodeUnavailable("reset"),
    restoreAll: nodeUnavailable("restoreAll"),
    timers: I.freeze({ __proto__: null, enable: nodeUnavailable("timers.enable"), tick: nodeUnavailable("timers.tick"), runAll: nodeUnavailable("timers.runAll"), reset: nodeUnavailable("timers.reset") }),
  });

  /** The recorded calls (arrays of arguments) and results of a mock made here, or undefined. */
  function recorded(value) {
    const state = stateOf(value);
    return state === undefined ? undefined : { __proto__: null, calls: state.calls, results: state.results, name: state.name };
  }

  return I.freeze({ __proto__: null, jest: framework("jest"), vi: framework("vi"), nodeMock, recorded });
}
