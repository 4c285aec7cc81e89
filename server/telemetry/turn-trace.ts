import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type Attributes, type Context, type Span, type Tracer } from "@opentelemetry/api";
import type { CallLedger, EngineEvent, RunObserver } from "../engine";
import { describeCallError, describeCallResult, startCallSpan } from "./call-spans";
import { ERROR_TYPE, GEN_AI, GEN_AI_OPERATION } from "./genai-attributes";
import { runSpanIdOf, traceIdOf } from "./run-trace-ids";

/** What a turn's trace needs to know of the turn (a ClaimedTurn has all of it). */
export interface TracedTurn {
  readonly runId: string;
  readonly epoch: number;
  readonly kind: string;
  readonly workerId: string;
  readonly retryCount: number;
}

/** How a turn ended, as the worker reports it (durable/lifecycle.ts TURN_OUTCOMES), or "error" when it threw. */
export type TracedOutcome = string;

export interface TurnTraceOptions {
  readonly tracer: Tracer;
  /** Whether the run's trace is sampled: every turn of a run must agree, so it depends on the trace id only. */
  readonly sampled: boolean;
  /** Emits the run's root span with the ids every turn points at (see run-trace-ids.ts). */
  readonly emitRunSpan: (name: string, options: { startTime: number; endTime: number; attributes: Attributes; error?: string }) => void;
  /** When the run was created, for its root span's start; undefined starts it with this turn. */
  readonly runCreatedAt: (runId: string) => Promise<number | undefined>;
  readonly now?: () => number;
}

/** Longest text put in an attribute (feedback, reasons): a trace is for finding, the run page for reading. */
const TEXT_LIMIT = 1_000;
const bounded = (text: string) => (text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT)}…` : text);
const ENDED_RUN_OUTCOMES = new Set(["succeeded", "failed", "cancelled"]);
/** `<prefix>/attempt-<n>` and what follows it in a ledger key (decision-keys.ts); the last one wins. */
const ATTEMPT_IN_KEY = /\/attempt-([1-9][0-9]{0,8})((?:\/.*)?)$/;

interface OpenSpan {
  readonly span: Span;
  readonly context: Context;
  readonly start: number;
}

interface AttemptState extends OpenSpan {
  readonly number: number;
  /** When its last generator call ended: where the guard, which runs right after the generator, starts. */
  lastCallEnd?: number;
  guard?: OpenSpan;
  ended?: boolean;
}

interface StepState extends OpenSpan {
  readonly name: string;
  /** An action pair's guard (llm, transition and code steps have none). */
  readonly guardId?: string;
  attempt?: AttemptState;
  /** When the step's last attempt ended: where the next one starts. */
  cursor: number;
}

/**
 * The spans of one turn, built from what the turn already reports: the engine's events (through
 * its RunObserver port) and the calls it makes (through its CallLedger port). The engine itself
 * knows nothing of OpenTelemetry. Events and calls a resumed turn replays from the ledger are not
 * work done in this turn and make no span.
 *
 *   invoke_workflow <workflow>          the run (emitted by the turn that ends it; ids from the run id)
 *   └ dualstate.turn <kind>             one per claimed inbox message, in whichever worker
 *     └ dualstate.step <step>           each step the turn worked on
 *       └ dualstate.attempt <step>      each attempt
 *         ├ chat <model>                each model request made (GenAI conventions)
 *         ├ execute_tool <tool>         each tool call made
 *         ├ dualstate.replay            each reply read from a replay cassette
 *         └ dualstate.guard <guard>     the verdict (an llm judge's chat spans inside it)
 */
export class TurnTrace {
  readonly #options: TurnTraceOptions;
  readonly #turn: TracedTurn;
  readonly #now: () => number;
  readonly #root: OpenSpan;
  #workflow: string | undefined;
  #step: StepState | undefined;
  /** When the turn's last step ended: where a step an earlier turn started resumes in this one. */
  #cursor: number;
  #runStatus: string | undefined;

  constructor(turn: TracedTurn, options: TurnTraceOptions) {
    this.#options = options;
    this.#turn = turn;
    this.#now = options.now ?? Date.now;
    const runContext = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: traceIdOf(turn.runId),
      spanId: runSpanIdOf(turn.runId),
      traceFlags: options.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
      isRemote: true,
    });
    this.#cursor = this.#now();
    this.#root = this.#open(`dualstate.turn ${turn.kind}`, runContext, this.#cursor, {
      "dualstate.run.id": turn.runId,
      "dualstate.turn.kind": turn.kind,
      "dualstate.turn.epoch": turn.epoch,
      "dualstate.turn.retry_count": turn.retryCount,
      "dualstate.worker.id": turn.workerId,
    });
  }

  /** The workflow the run executes, once the turn has read it. */
  setWorkflow(name: string): void {
    this.#workflow = name;
    this.#root.span.setAttribute("dualstate.workflow.name", name);
  }

  /** `inner` with a span for each new event; `isReplayed(key)` says whether an earlier turn recorded it. */
  observer(inner: RunObserver, isReplayed: (key: string) => boolean): RunObserver {
    return {
      record: async (event, key) => {
        const replayed = key !== undefined && isReplayed(key);
        await inner.record(event, key);
        if (!replayed) safely(() => this.#onEvent(event, key), undefined);
      },
      ...(inner.recall ? { recall: (key: string) => inner.recall!(key) } : {}),
    };
  }

  /** `inner` with a span around each call actually made (a replayed call makes no request). */
  calls(inner: CallLedger): CallLedger {
    return {
      call: async (key, request, perform) => {
        const parent = safely(() => this.#parentOfCall(key), this.#root.context);
        let made: Span | undefined;
        const outcome = await inner.call(key, request, async (identity) => {
          const span = safely(() => startCallSpan(this.#options.tracer, { key, request, parent, startTime: this.#now() }), undefined);
          made = span;
          try {
            const result = await perform(identity);
            if (span) safely(() => describeCallResult(span, request, result), undefined);
            return result;
          } catch (error) {
            if (span) safely(() => describeCallError(span, error), undefined);
            throw error;
          } finally {
            safely(() => {
              span?.end(this.#now());
              this.#callEnded(key);
            }, undefined);
          }
        });
        if (made && !outcome.ok) made.setAttribute(ERROR_TYPE, outcome.error.code);
        return outcome;
      },
      note: (key, actor, text) => inner.note(key, actor, text),
    };
  }

  /** Ends the turn's spans; when the turn ended the run, emits the run's root span. Never throws. */
  async end(outcome: TracedOutcome, error?: unknown): Promise<void> {
    const now = this.#now();
    this.#closeStep(now, undefined);
    const root = this.#root.span;
    root.setAttribute("dualstate.turn.outcome", outcome);
    if (this.#runStatus) root.setAttribute("dualstate.run.status", this.#runStatus);
    if (outcome === "error" || outcome === "failed") {
      root.setStatus({ code: SpanStatusCode.ERROR, message: bounded(error instanceof Error ? error.message : outcome) });
    }
    root.end(now);
    if (!ENDED_RUN_OUTCOMES.has(outcome)) return;
    const created = await this.#options.runCreatedAt(this.#turn.runId).catch(() => undefined);
    const workflow = this.#workflow ?? "run";
    this.#options.emitRunSpan(`${GEN_AI_OPERATION.INVOKE_WORKFLOW} ${workflow}`, {
      startTime: created !== undefined && created <= this.#root.start ? created : this.#root.start,
      endTime: now,
      attributes: {
        [GEN_AI.OPERATION_NAME]: GEN_AI_OPERATION.INVOKE_WORKFLOW,
        ...(this.#workflow ? { [GEN_AI.WORKFLOW_NAME]: this.#workflow } : {}),
        "dualstate.run.id": this.#turn.runId,
        "dualstate.run.outcome": outcome,
      },
      ...(outcome === "succeeded" ? {} : { error: outcome }),
    });
  }

  #open(name: string, parent: Context, startTime: number, attributes: Attributes, kind = SpanKind.INTERNAL): OpenSpan {
    const span = this.#options.tracer.startSpan(name, { kind, startTime, attributes }, parent);
    return { span, context: trace.setSpan(parent, span), start: startTime };
  }

  #onEvent(event: EngineEvent, key: string | undefined): void {
    const now = this.#now();
    switch (event.type) {
      case "run.started":
        this.#root.span.setAttribute("dualstate.run.started", true);
        return;
      case "step.started": {
        this.#closeStep(now, undefined);
        this.#step = this.#openStep(event.step, now, {
          "dualstate.step.kind": "kind" in event ? event.kind : "action_pair",
          ...("guardId" in event ? { "dualstate.guard.id": event.guardId } : {}),
          ...(event.state !== undefined ? { "dualstate.state": event.state } : {}),
        });
        return;
      }
      case "generator.completed": {
        const attempt = this.#attempt(event.step, event.attempt, now);
        const model = event.metadata.model;
        if (typeof model === "string") attempt.span.setAttribute(GEN_AI.REQUEST_MODEL, model);
        if (typeof event.metadata.generator === "string") attempt.span.setAttribute("dualstate.generator", event.metadata.generator);
        attempt.span.setAttribute("dualstate.artifact.id", event.artifactId);
        return;
      }
      case "guard.completed": {
        const onEdit = key?.includes("/edit/") === true;
        const attempt = this.#attempt(event.step, event.attempt, now);
        const result = event.result;
        const verdict = result.passed ? "passed" : result.fatal ? "fatal" : "failed";
        const started = attempt.guard?.start ?? guardStart(attempt, now, result.durationMs);
        const step = this.#stepNamed(event.step, now);
        const guard = attempt.guard ?? this.#open(`dualstate.guard ${step.guardId ?? step.name}`, onEdit ? step.context : attempt.context, started, {});
        guard.span.setAttributes({
          "dualstate.guard.verdict": verdict,
          "dualstate.guard.on_edit": onEdit,
          "dualstate.artifact.id": event.artifactId,
          ...(result.durationMs !== undefined ? { "dualstate.guard.duration_ms": result.durationMs } : {}),
          ...(result.feedback ? { "dualstate.guard.feedback": bounded(result.feedback) } : {}),
        });
        if (result.fatal) guard.span.setStatus({ code: SpanStatusCode.ERROR, message: "fatal verdict" });
        guard.span.end(now);
        attempt.guard = undefined;
        if (!onEdit) this.#endAttempt(attempt, now, verdict, result.passed ? undefined : result.feedback);
        return;
      }
      case "step.attempt_failed": {
        const attempt = this.#attempt(event.step, event.attempt, now);
        this.#endAttempt(attempt, now, "failed", event.reason);
        return;
      }
      case "state.advanced":
        this.#stepNamed(event.step, now);
        this.#closeStep(now, "passed");
        return;
      case "step.completed":
        this.#stepNamed(event.step, now);
        this.#closeStep(now, "completed");
        return;
      case "step.escalated":
        this.#stepNamed(event.step, now);
        this.#closeStep(now, "escalated");
        return;
      case "step.exhausted":
        this.#stepNamed(event.step, now);
        this.#closeStep(now, "exhausted", `gave up after ${event.attempts} attempts`);
        return;
      case "run.finished":
        this.#runStatus = event.result.status;
        this.#closeStep(now, undefined);
        return;
      case "run.suspended":
        this.#runStatus = "suspended";
        this.#closeStep(now, undefined);
        return;
    }
  }

  #openStep(name: string, now: number, attributes: Attributes): StepState {
    const opened = this.#open(`dualstate.step ${name}`, this.#root.context, now, { "dualstate.step.name": name, ...attributes });
    const guardId = attributes["dualstate.guard.id"];
    return { ...opened, name, cursor: now, ...(typeof guardId === "string" ? { guardId } : {}) };
  }

  /** The open step of this name; a step that started in an earlier turn gets its span in this one. */
  #stepNamed(name: string, now: number): StepState {
    if (this.#step?.name === name) return this.#step;
    this.#closeStep(now, undefined);
    this.#step = this.#openStep(name, Math.min(this.#cursor, now), { "dualstate.step.resumed": true });
    return this.#step;
  }

  /** The open attempt `number` of `stepName`, opened where the previous one ended. */
  #attempt(stepName: string, number: number, now: number): AttemptState {
    const step = this.#stepNamed(stepName, now);
    const current = step.attempt;
    if (current && current.number === number) return current;
    if (current && !current.ended) this.#endAttempt(current, now, undefined);
    const opened = this.#open(`dualstate.attempt ${stepName}`, step.context, Math.min(step.cursor, now), { "dualstate.step.name": stepName, "dualstate.attempt": number });
    step.attempt = { ...opened, number };
    return step.attempt;
  }

  #endAttempt(attempt: AttemptState, now: number, outcome: string | undefined, reason?: string): void {
    if (attempt.ended) return;
    attempt.ended = true;
    attempt.guard?.span.end(now);
    attempt.guard = undefined;
    if (outcome) attempt.span.setAttribute("dualstate.attempt.outcome", outcome);
    if (outcome && outcome !== "passed") attempt.span.setStatus({ code: SpanStatusCode.ERROR, message: bounded(reason ?? outcome) });
    attempt.span.end(now);
    if (this.#step) this.#step.cursor = now;
  }

  #closeStep(now: number, outcome: string | undefined, error?: string): void {
    const step = this.#step;
    if (!step) return;
    this.#step = undefined;
    if (step.attempt && !step.attempt.ended) this.#endAttempt(step.attempt, now, outcome === "passed" || outcome === "completed" ? "passed" : undefined);
    if (outcome) step.span.setAttribute("dualstate.step.outcome", outcome);
    if (error) step.span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    step.span.end(now);
    this.#cursor = now;
  }

  /** Where a call's span goes: its attempt (found by the key), inside the guard for a guard's own calls. */
  #parentOfCall(key: string): Context {
    const match = ATTEMPT_IN_KEY.exec(key);
    const step = this.#step;
    if (!match || !step) return step?.context ?? this.#root.context;
    const now = this.#now();
    const attempt = this.#attempt(step.name, Number(match[1]), now);
    if (attempt.ended) return step.context;
    if (!match[2]?.startsWith("/guard")) return attempt.context;
    attempt.guard ??= this.#open(`dualstate.guard ${step.guardId ?? step.name}`, attempt.context, guardStart(attempt, now, undefined), {});
    return attempt.guard.context;
  }

  #callEnded(key: string): void {
    const match = ATTEMPT_IN_KEY.exec(key);
    const attempt = this.#step?.attempt;
    if (match && attempt && attempt.number === Number(match[1]) && !match[2]?.startsWith("/guard")) attempt.lastCallEnd = this.#now();
  }

}

/** A guard starts right after its generator returns: its last call's end, or `durationMs` before its verdict. */
function guardStart(attempt: AttemptState, now: number, durationMs: number | undefined): number {
  const measured = durationMs !== undefined && Number.isFinite(durationMs) && durationMs >= 0 ? now - durationMs : undefined;
  const start = measured ?? attempt.lastCallEnd ?? attempt.start;
  return Math.min(now, Math.max(attempt.start, start));
}



/** Telemetry never fails a run: a span that cannot be made is left out. */
function safely<T>(work: () => T, fallback: T): T {
  try {
    return work();
  } catch {
    return fallback;
  }
}
