import { randomBytes } from "node:crypto";
import { harnessFactorySources, harnessSource, HELPER_PROBE, wrapTests } from "../harness/bootstrap-source.mjs";
import { createHostObject } from "./host-functions.mjs";
import { finalOutcome, incompleteOutcome, limitOutcome } from "./outcomes.mjs";
import { createRunState, during, isStopped, shouldInterrupt, stopForEngineLimit } from "./run-state.mjs";
import { release, VirtualTimers } from "./virtual-timers.mjs";

const MIB = 1024 * 1024;
/**
 * QuickJS's own stack limit. Its default lets deep recursion overflow the *host* stack and
 * crash the process (stack.md pitfall 16); with 128 KiB a runaway recursion is a clean
 * "stack overflow" error, and there is ample margin on the worker's 4 MB V8 stack.
 */
const MAX_STACK_BYTES = 128 * 1024;
/** Promise jobs run in batches so the wall clock is checked between them: an endless promise chain never returns on its own. */
const JOB_BATCH = 256;
const HARNESS_FILE = "harness.js";

/**
 * A fresh QuickJS runtime with the harness bootstrapped, ready for one run. Everything up to
 * here depends only on the memory limit, so an idle worker prepares it before its job arrives
 * (parsing the harness is most of a trivial run's cost). Throws only if QuickJS is broken.
 */
export function prepareSession(QuickJS, memoryMb) {
  const state = createRunState({ nonce: randomBytes(16).toString("hex"), memoryMb });
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(memoryMb * MIB);
  runtime.setMaxStackSize(MAX_STACK_BYTES);
  runtime.setInterruptHandler(() => shouldInterrupt(state));
  runtime.setModuleLoader((name) => ({ error: new Error(`modules are not available in the sandbox (cannot import ${JSON.stringify(name)})`) }));
  const session = new Session(runtime, runtime.newContext(), state);
  session.bootstrap();
  return session;
}

class Session {
  constructor(runtime, ctx, state) {
    Object.assign(this, { runtime, ctx, state, job: undefined, timers: new VirtualTimers(), controls: undefined });
  }

  /**
   * The run: evaluate the artifact as global code, then the test code (which sees the
   * artifact's globals and can require it); run the
   * registered tests with promise jobs and virtual timers pumped until the harness signals the
   * end; judge from the host-side state. Never throws for anything the sandboxed code does.
   */
  run(job, output) {
    Object.assign(this.state, { deadline: job.deadline, limits: job.limits, output });
    this.job = job;
    try {
      return this.evaluate("artifact") ?? this.checkHelpers("the artifact") ?? this.evaluate("tests") ?? this.checkHelpers("the test code") ?? this.runTests();
    } catch (error) {
      return this.crashed(error);
    }
  }

  bootstrap() {
    const { ctx } = this;
    const factories = ctx.newObject();
    for (const [name, source] of harnessFactorySources()) {
      const factory = ctx.unwrapResult(ctx.evalCode(source, HARNESS_FILE, { type: "global", strict: true }));
      ctx.setProp(factories, name, factory);
      factory.dispose();
    }
    const bootstrap = ctx.unwrapResult(ctx.evalCode(harnessSource(), HARNESS_FILE, { type: "global", strict: true }));
    const host = createHostObject(ctx, this.state, this.timers);
    const args = [host, ctx.newString(this.state.nonce), factories];
    const controls = ctx.unwrapResult(ctx.callFunction(bootstrap, ctx.undefined, args));
    this.controls = Object.fromEntries(["runAll", "abandon", "runTimer", "describeError", "replacedHelper", "artifactLoaded", "loadTests"].map((name) => [name, ctx.getProp(controls, name)]));
    for (const handle of [bootstrap, controls, ...args]) handle.dispose();
  }

  /**
   * Evaluates the artifact as global code (its ES exports, if any, are the completion value:
   * see prepare-source.ts), or the test code inside the tests' function (wrapTests); an
   * outcome if that ends the run.
   */
  evaluate(role) {
    const { ctx, state } = this;
    state.phase = role;
    const source = this.job[role];
    const code = role === "tests" ? wrapTests(source.code, source.topLevelAwait) : source.code;
    const result = ctx.evalCode(code, source.fileName, { type: "global" });
    if (result.error) return this.thrown(result.error, role);
    const control = role === "tests" ? this.controls.loadTests : this.controls.artifactLoaded;
    const args = role === "tests" || source.exportsTrailer ? [result.value] : [];
    const loaded = ctx.callFunction(control, ctx.undefined, args);
    result.value.dispose();
    if (loaded.error) return role === "tests" ? this.thrown(loaded.error, role) : this.harnessFailed(loaded.error);
    if (role === "tests" && source.topLevelAwait) return this.awaitTopLevel(loaded.value);
    loaded.value.dispose();
    return this.drainJobs();
  }

  /** Runs promise jobs and due timers until the tests' async top level settles; an outcome if that ends the run. */
  awaitTopLevel(promise) {
    const { ctx } = this;
    try {
      for (;;) {
        const stopped = this.drainJobs();
        if (stopped) return stopped;
        const settled = ctx.getPromiseState(promise);
        if (settled.type === "fulfilled") {
          settled.value.dispose();
          return undefined;
        }
        if (settled.type === "rejected") return this.thrown(settled.error, "tests");
        const timer = this.timers.takeNext();
        if (!timer) {
          return { status: "error", message: "the top level of the test code awaits a promise that can never settle (no timers or other pending work are left)", tests: [] };
        }
        const result = ctx.callFunction(this.controls.runTimer, ctx.undefined, [timer.callback, timer.args]);
        release(timer);
        if (result.error) return this.harnessFailed(result.error);
        result.value.dispose();
      }
    } finally {
      promise.dispose();
    }
  }

  /** Outcome for an error thrown at the top level of the artifact or the test code. */
  thrown(errorHandle, role) {
    if (isStopped(this.state)) return limitOutcome(this.state);
    const [kind, text] = this.describe(errorHandle);
    errorHandle.dispose();
    if (kind === "memory" || kind === "stack" || kind === "interrupted") return this.engineLimit(kind, text);
    if (kind === "assertion" && role === "tests") return { status: "failed", tests: [{ name: "(top level)", passed: false, message: text }] };
    return { status: "error", message: `${text}, ${during(this.state)}`, tests: [] };
  }

  /** QuickJS's own limits: out of memory, stack overflow (an "interrupted" error implies a stop). */
  engineLimit(kind, text) {
    stopForEngineLimit(this.state, kind, text);
    return limitOutcome(this.state);
  }

  describe(errorHandle) {
    const { ctx } = this;
    const result = ctx.callFunction(this.controls.describeError, ctx.undefined, [errorHandle]);
    if (result.error) {
      result.error.dispose();
      return ["error", "an error was thrown that could not be described"];
    }
    const part = (index) => {
      const handle = ctx.getProp(result.value, index);
      const text = ctx.typeof(handle) === "string" ? ctx.getString(handle) : "";
      handle.dispose();
      return text;
    };
    const described = [part(0), part(1)];
    result.value.dispose();
    return described;
  }

  /** Checks that the helper names still resolve to the harness's own functions. */
  checkHelpers(who) {
    const { ctx } = this;
    const probe = ctx.evalCode(HELPER_PROBE, "harness-probe.js", { type: "global" });
    if (probe.error) {
      probe.error.dispose();
      return isStopped(this.state) ? limitOutcome(this.state) : incompleteOutcome(`after ${who} ran, the test helpers (test, expect, assert, ...) could no longer be reached`);
    }
    const result = ctx.callFunction(this.controls.replacedHelper, ctx.undefined, [probe.value]);
    probe.value.dispose();
    if (result.error) return this.harnessFailed(result.error);
    const replaced = ctx.getString(result.value);
    result.value.dispose();
    if (replaced === "") return undefined;
    return incompleteOutcome(`${who} replaced the test helper "${replaced}", so the tests' results could not be trusted`);
  }

  runTests() {
    const { ctx, state } = this;
    state.phase = "running";
    const started = ctx.callFunction(this.controls.runAll, ctx.undefined, []);
    if (started.error) return this.harnessFailed(started.error);
    started.value.dispose();
    const stopped = this.pump();
    if (stopped) return stopped;
    state.phase = "finished";
    return this.checkHelpers("the code under test") ?? finalOutcome(state, this.timers);
  }

  /** Runs promise jobs, then due timers, until the harness is done; an outcome if a limit stops it. */
  pump() {
    const { ctx, state } = this;
    for (;;) {
      const stopped = this.drainJobs();
      if (stopped || state.done) return stopped;
      const timer = this.timers.takeNext();
      if (timer) {
        const result = ctx.callFunction(this.controls.runTimer, ctx.undefined, [timer.callback, timer.args]);
        release(timer);
        if (result.error) return this.harnessFailed(result.error);
        result.value.dispose();
        continue;
      }
      // Nothing left that could ever settle the running test: the harness fails it and moves on.
      const abandoned = ctx.callFunction(this.controls.abandon, ctx.undefined, []);
      if (abandoned.error) return this.harnessFailed(abandoned.error);
      const moved = ctx.dump(abandoned.value) === true;
      abandoned.value.dispose();
      if (!moved) return undefined;
    }
  }

  /** Runs pending promise jobs (not timers) in batches, checking the limits in between. */
  drainJobs() {
    const { runtime, state } = this;
    while (!isStopped(state)) {
      if (!runtime.hasPendingJob()) return undefined;
      const result = runtime.executePendingJobs(JOB_BATCH);
      if (result.error) {
        if (isStopped(state)) break;
        const [kind, text] = this.describe(result.error);
        result.error.dispose();
        state.uncaught ??= `${kind === "assertion" ? "AssertionError: " : ""}${text}`;
      }
    }
    return limitOutcome(state);
  }

  /** A call into the harness itself failed: a limit, or the code under test broke the harness. */
  harnessFailed(errorHandle) {
    if (isStopped(this.state)) {
      errorHandle.dispose();
      return limitOutcome(this.state);
    }
    const [kind, text] = this.describe(errorHandle);
    errorHandle.dispose();
    if (kind === "memory" || kind === "stack" || kind === "interrupted") return this.engineLimit(kind, text);
    return incompleteOutcome(`the tests did not reach their end: the test harness failed (${text}), presumably because the code under test tampered with the built-ins it relies on`);
  }

  /** QuickJS itself failed (e.g. the WebAssembly instance aborted). */
  crashed(error) {
    if (isStopped(this.state)) return limitOutcome(this.state);
    const message = error instanceof Error ? error.message : String(error);
    if (/out of memory|OOM|Cannot enlarge memory|Aborted/i.test(message)) {
      return { status: "limit", limit: "memory", message: `the sandbox runtime ran out of memory (limit ${this.job.limits.memoryMb} MB) ${during(this.state)}: ${message}` };
    }
    return { status: "error", message: `the sandbox runtime failed ${during(this.state)}: ${message}`, tests: [] };
  }
}
