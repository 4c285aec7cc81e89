import { MAX_PENDING_TIMERS } from "./virtual-timers.mjs";
import { setViolation, stop, stopForEngineLimit } from "./run-state.mjs";

const MAX_TESTS = 10_000;
const MAX_TEXT = 4_000;
const RESULT_KINDS = new Set(["passed", "assertion", "error", "memory", "stack", "interrupted"]);

/**
 * The only host functions the sandbox gets. They are handed to the harness's bootstrap as one
 * object (never put on the global object), captured there, and reachable by the artifact only
 * through the harness's own wrappers. The reporting functions (register/record/started/done/
 * uncaught) also require the run's nonce. Arguments are read only if they are primitives of
 * the expected type, so reading them never runs sandboxed code.
 */
export function createHostObject(ctx, state, timers) {
  const string = (handle, max = MAX_TEXT) => (handle !== undefined && ctx.typeof(handle) === "string" ? ctx.getString(handle).slice(0, max) : undefined);
  const number = (handle) => (handle !== undefined && ctx.typeof(handle) === "number" ? ctx.getNumber(handle) : undefined);
  const trusted = (nonceHandle) => {
    const ok = string(nonceHandle) === state.nonce;
    if (!ok) setViolation(state, "a test-reporting function was called without the run's secret");
    return ok;
  };

  const functions = {
    register(nonce, index, name) {
      if (!trusted(nonce)) return;
      if (state.phase === "artifact") throw new Error("test() can only be called from the test code, not from the artifact");
      if (number(index) !== state.registered.length || string(name) === undefined) return setViolation(state, "a test was registered out of order");
      if (state.registered.length >= MAX_TESTS) throw new Error(`too many tests (more than ${MAX_TESTS})`);
      state.registered.push(string(name));
    },
    record(nonce, index, kind, text) {
      if (!trusted(nonce)) return;
      const i = number(index);
      const k = string(kind);
      if (i === undefined || i < 0 || i >= state.registered.length || state.results[i] !== undefined || !RESULT_KINDS.has(k)) {
        return setViolation(state, "a test result was reported twice or for an unknown test");
      }
      state.results[i] = { kind: k, text: string(text) ?? "" };
      stopForEngineLimit(state, k, state.results[i].text);
    },
    started(nonce, index) {
      if (trusted(nonce)) state.current = number(index) ?? -1;
    },
    done(nonce, count) {
      if (!trusted(nonce)) return;
      state.done = true;
      state.doneCount = number(count) ?? -1;
    },
    uncaught(nonce, kind, text) {
      if (!trusted(nonce)) return;
      const k = string(kind);
      stopForEngineLimit(state, k, string(text) ?? "");
      if (k === "assertion" || k === "error") state.uncaught ??= string(text) ?? "uncaught error";
    },
    isPromise(value) {
      if (value === undefined) return ctx.false;
      const promiseState = ctx.getPromiseState(value);
      if (promiseState.notAPromise) return ctx.false;
      if (promiseState.type === "fulfilled") promiseState.value.dispose();
      if (promiseState.type === "rejected") promiseState.error.dispose();
      return ctx.true;
    },
    log(text) {
      if (state.kill !== null) return;
      if (!state.output.write(`${string(text, Infinity) ?? ""}\n`)) stop(state, "output", `console output exceeded the limit of ${state.limits.outputBytes} bytes (only the first ${state.limits.outputBytes} bytes are kept)`);
    },
    schedule(callback, delay, args, where) {
      if (callback === undefined || ctx.typeof(callback) !== "function" || args === undefined) return undefined;
      if (timers.size >= MAX_PENDING_TIMERS) {
        stop(state, "timers", `more than ${MAX_PENDING_TIMERS} timers were pending at once`);
        return undefined;
      }
      return ctx.newNumber(timers.schedule(callback.dup(), args.dup(), number(delay) ?? 0, string(where) ?? ""));
    },
    clock() {
      return ctx.newNumber(Date.now() + timers.skippedMs);
    },
    cancel(id) {
      const value = number(id);
      if (value !== undefined) timers.cancel(value);
    },
  };

  const host = ctx.newObject();
  for (const [name, implementation] of Object.entries(functions)) {
    const fn = ctx.newFunction(name, implementation);
    ctx.setProp(host, name, fn);
    fn.dispose();
  }
  return host;
}
