import { ROOT_CONTEXT, SpanKind, SpanStatusCode } from "@opentelemetry/api";
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
