import { DiagLogLevel, ROOT_CONTEXT, SpanKind, SpanStatusCode, diag } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  RandomIdGenerator,
  SamplingDecision,
  TraceIdRatioBasedSampler,
  type IdGenerator,
  type Sampler,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import { runSpanIdOf, traceIdOf } from "./run-trace-ids";
import { tracesUrl, tracingEnabled, type TracingEnv } from "./tracing-settings";
import { TurnTrace, type TracedTurn } from "./turn-trace";

/** The root sampler OTEL_TRACES_SAMPLER names; every sampler used decides on the trace id alone, so all turns of a run agree. */
function rootSampler(env: TracingEnv): Sampler {
  switch (env.OTEL_TRACES_SAMPLER) {
    case "always_off":
    case "parentbased_always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
    case "parentbased_traceidratio":
      return new TraceIdRatioBasedSampler(env.OTEL_TRACES_SAMPLER_ARG ?? 1);
    default:
      return new AlwaysOnSampler();
  }
}

/**
 * Ids for the one span whose ids are not random: a run's root span (run-trace-ids.ts). The SDK
 * asks its generator for the ids inside the synchronous startSpan call, so setting them just
 * before that call and clearing them right after hands them to that span only.
 */
class RunRootIds implements IdGenerator {
  readonly #random = new RandomIdGenerator();
  #next: { traceId: string; spanId: string } | undefined;

  generateTraceId(): string {
    return this.#next?.traceId ?? this.#random.generateTraceId();
  }

  generateSpanId(): string {
    return this.#next?.spanId ?? this.#random.generateSpanId();
  }

  with<T>(ids: { traceId: string; spanId: string }, start: () => T): T {
    this.#next = ids;
    try {
      return start();
    } finally {
      this.#next = undefined;
    }
  }
}

export type { TracingEnv };

export interface RunTracing {
  /** The spans of one claimed turn. */
  startTurn(turn: TracedTurn): TurnTrace;
  /** Sends what is buffered. */
  flush(): Promise<void>;
  /** Sends what is buffered and stops exporting. */
  shutdown(): Promise<void>;
}

export interface RunTracingOptions {
  /** When the run was created (ms since the epoch), for its root span's start. */
  readonly runCreatedAt: (runId: string) => Promise<number | undefined>;
  /** Tests export elsewhere; by default OTLP/HTTP (JSON) to the configured endpoint. */
  readonly exporter?: SpanExporter;
  /** Where the SDK's warnings go (an unreachable collector, a rejected export), at most one a minute. */
  readonly log?: (line: string) => void;
}

const SDK_WARNING_INTERVAL_MS = 60_000;

/** The SDK reports a failed export as the error's JSON, stack included: its message is what a log needs. */
function withoutStack(message: string): string {
  try {
    const parsed: unknown = JSON.parse(message);
    if (typeof parsed === "object" && parsed !== null && "message" in parsed && typeof parsed.message === "string") return parsed.message;
  } catch {
    // Not JSON: the message as it is.
  }
  return message;
}

/** The SDK's errors and warnings to the worker's log, one a minute at most: a collector that is down must not flood it. */
function reportSdkWarnings(log: (line: string) => void): void {
  let last = -Infinity;
  const report = (message: string, ...args: unknown[]) => {
    const now = Date.now();
    if (now - last < SDK_WARNING_INTERVAL_MS) return;
    last = now;
    const detail = args.map((arg) => (arg instanceof Error ? arg.message : typeof arg === "string" ? arg : "")).filter(Boolean).join(" ");
    log(`tracing: ${withoutStack(message)}${detail ? ` ${detail}` : ""}`.slice(0, 500));
  };
  const quiet = () => {};
  diag.setLogger({ error: report, warn: report, info: quiet, debug: quiet, verbose: quiet }, DiagLogLevel.WARN);
}

/**
 * The OpenTelemetry SDK for a worker process, or undefined when tracing is not configured (then
 * nothing of the SDK is started and the worker's turns carry no telemetry). Spans are batched
 * and exported over OTLP/HTTP; OTEL_BSP_* and OTEL_EXPORTER_OTLP_* (headers, timeout,
 * compression) are read by the SDK as usual, OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES name
 * the service.
 */
export function startRunTracing(env: TracingEnv, options: RunTracingOptions): RunTracing | undefined {
  if (!tracingEnabled(env)) return undefined;
  if (options.log) reportSdkWarnings(options.log);
  const ids = new RunRootIds();
  const root = rootSampler(env);
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: "dualstate" }))
    .merge(detectResources({ detectors: [envDetector] }));
  const exporter = options.exporter ?? new OTLPTraceExporter({ url: tracesUrl(env) });
  const provider = new BasicTracerProvider({ resource, idGenerator: ids, sampler: new ParentBasedSampler({ root }), spanProcessors: [new BatchSpanProcessor(exporter)] });
  const tracer = provider.getTracer("dualstate");
  const sampled = (runId: string) => root.shouldSample(ROOT_CONTEXT, traceIdOf(runId), "run", SpanKind.INTERNAL, {}, []).decision === SamplingDecision.RECORD_AND_SAMPLED;
  return {
    startTurn: (turn) =>
      new TurnTrace(turn, {
        tracer,
        sampled: sampled(turn.runId),
        runCreatedAt: options.runCreatedAt,
        emitRunSpan: (name, span) => {
          const started = ids.with({ traceId: traceIdOf(turn.runId), spanId: runSpanIdOf(turn.runId) }, () =>
            tracer.startSpan(name, { kind: SpanKind.INTERNAL, startTime: span.startTime, attributes: span.attributes }, ROOT_CONTEXT),
          );
          if (span.error) started.setStatus({ code: SpanStatusCode.ERROR, message: span.error });
          started.end(span.endTime);
        },
      }),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
