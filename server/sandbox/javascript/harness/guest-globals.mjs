/**
 * GUEST CODE (see intrinsics.mjs): self-contained, uses only `I`, the formatter `F`, the
 * error describer `D`, the captured host functions `H` and the runner `R`.
 *
 * console and the timer functions. Timers are virtual: setTimeout hands the callback to the
 * host, which runs due timers in order of their (virtual) time whenever nothing else is left
 * to do, so `await new Promise(r => setTimeout(r, 1000))` takes no real time. Date follows
 * the same clock (real time plus the time skipped), so code that compares Date.now() across
 * a wait (debounce, caches with a TTL) sees the time pass. setInterval is refused: every timer
 * must have run by the time the tests end.
 */
export function createGuestGlobals(I, F, D, H, R, maxOutputChars) {
  "use strict";
  const call = I.apply;
  const settled = call(I.promiseResolve, I.Promise, [undefined]);

  const write = (...args) => {
    H.log(F.formatArgs(args, maxOutputChars));
  };
  const console = I.freeze({ log: write, info: write, debug: write, warn: write, error: write, trace: write, dir: write });

  function callback(fn, name) {
    if (typeof fn !== "function") throw I.construct(I.TypeError, [name + " needs a function (code strings are not evaluated), got " + F.formatValue(fn)]);
  }

  const setTimeout = (fn, delay, ...args) => {
    callback(fn, "setTimeout");
    const ms = typeof delay === "number" ? delay : I.Number(delay);
    const where = D.location(I.construct(I.Error, []));
    return H.schedule(fn, ms >= 0 ? ms : 0, args, where);
  };
  const clearTimeout = (id) => {
    if (typeof id === "number") H.cancel(id);
  };
  const setInterval = () => {
    throw I.construct(I.Error, ["setInterval is not available in the sandbox: every timer must have run when the tests end; use setTimeout"]);
  };
  const queueMicrotask = (fn) => {
    callback(fn, "queueMicrotask");
    call(I.promiseThen, settled, [() => runCallback(fn, [], "queueMicrotask")]);
  };

  const RealDate = I.Date;
  /** Date with the virtual clock: `new Date()` and Date.now(); everything else is the real Date. */
  function Date(...args) {
    if (new.target === undefined) return I.String(I.construct(RealDate, [H.clock()]));
    return I.construct(RealDate, args.length === 0 ? [H.clock()] : args, new.target);
  }
  I.defineProperty(Date, "prototype", { __proto__: null, value: RealDate.prototype, writable: false, enumerable: false, configurable: false });
  I.defineProperty(Date, "length", { __proto__: null, value: 7, writable: false, enumerable: false, configurable: true });
  const statics = { __proto__: null, now: () => H.clock(), parse: RealDate.parse, UTC: RealDate.UTC };
  const staticNames = I.keys(statics);
  for (let i = 0; i < staticNames.length; i++) {
    I.defineProperty(Date, staticNames[i], { __proto__: null, value: statics[staticNames[i]], writable: true, enumerable: false, configurable: true });
  }
  I.defineProperty(RealDate.prototype, "constructor", { __proto__: null, value: Date, writable: true, enumerable: false, configurable: true });
  I.defineProperty(I.global, "Date", { __proto__: null, value: Date, writable: true, enumerable: false, configurable: true });

  /** Runs a timer or microtask callback; what it throws fails the running test (see R.uncaught). */
  function runCallback(fn, args, source) {
    try {
      call(fn, undefined, args);
    } catch (error) {
      R.uncaught(error, source);
    }
  }

  return I.freeze({
    __proto__: null,
    console,
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval: clearTimeout,
    queueMicrotask,
    runTimer: (fn, args) => runCallback(fn, args, "setTimeout"),
  });
}
