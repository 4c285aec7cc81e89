import type { Guard } from "../engine";
import { DEFAULT_SANDBOX_LIMITS } from "../sandbox/types";
import { createAllOfGuard, createAnyOfGuard } from "./composite/composite-guards";
import { refusingEmpty } from "./composite/refuse-empty";
import type { GuardContext } from "./guard-context";
import { GuardSpecError, parseGuardSpec, type GuardSpec, type LimitsSpec } from "./guard-spec";
import { createHumanGuard } from "./human/human-guard";
import { createJsonSchemaGuard } from "./json-schema/json-schema-guard";
import type { GuardLanguage } from "./language";
import { createLlmJudgeGuard } from "./llm-judge/llm-judge-guard";
import { createSecurityGuard } from "./security/security-guard";
import { createSyntaxGuard } from "./syntax/syntax-guard";
import { createTddGuard, createTestGuard } from "./testing/test-guard";
import { withGuardLimits } from "./with-guard-limits";

/** Headroom over the sandbox's own wall clock, for process start-up and reporting. */
const SANDBOX_MARGIN_MS = 5_000;
const ANALYSIS_TIMEOUT_MS = 15_000;
const JUDGE_TIMEOUT_MS = 120_000;
const COMPOSITE_TIMEOUT_MS = 600_000;

function languageOf(spec: { language?: GuardLanguage }, context: GuardContext, where: string): GuardLanguage {
  const language = spec.language ?? context.language;
  if (!language) throw new GuardSpecError(`${where}.language: required for this guard (javascript, typescript or python), unless the workflow sets a language`);
  return language;
}

function sandboxTimeout(limits: LimitsSpec | undefined): number {
  return (limits?.wall_clock_ms ?? DEFAULT_SANDBOX_LIMITS.wallClockMs) + SANDBOX_MARGIN_MS;
}

/** Every guard, composite members included, refuses empty content unless the step allows it. */
function build(spec: GuardSpec, context: GuardContext, where: string): Guard {
  const guard = buildKind(spec, context, where);
  return context.allowEmpty ? guard : refusingEmpty(guard);
}

function buildKind(spec: GuardSpec, context: GuardContext, where: string): Guard {
  const python = context.pythonExecutable;
  switch (spec.kind) {
    case "syntax":
      return withLimits(spec, createSyntaxGuard(languageOf(spec, context, where), python), ANALYSIS_TIMEOUT_MS);
    case "test":
      return withLimits(spec, createTestGuard(spec.test, { language: languageOf(spec, context, where), limits: spec.limits, pythonExecutable: python }), sandboxTimeout(spec.limits));
    case "tdd":
      return withLimits(spec, createTddGuard({ language: languageOf(spec, context, where), limits: spec.limits, pythonExecutable: python }), sandboxTimeout(spec.limits));
    case "security":
      return withLimits(
        spec,
        createSecurityGuard({ language: languageOf(spec, context, where), allowModules: spec.allow_modules, allowCalls: spec.allow_calls, pythonExecutable: python }),
        ANALYSIS_TIMEOUT_MS,
      );
    case "json_schema":
      return withLimits(spec, createJsonSchemaGuard(spec.schema, { timeoutMs: spec.timeout_ms ?? ANALYSIS_TIMEOUT_MS }), ANALYSIS_TIMEOUT_MS);
    case "llm_judge":
      return withLimits(spec, createLlmJudgeGuard(spec, context.judge, context.judgeReplay), JUDGE_TIMEOUT_MS);
    case "human":
      return withLimits(spec, createHumanGuard(spec.instructions), ANALYSIS_TIMEOUT_MS);
    case "all_of":
    case "any_of": {
      const members = spec.guards.map((member, index) => build(member, context, `${where}.guards.${index}`));
      return withLimits(spec, spec.kind === "all_of" ? createAllOfGuard(members) : createAnyOfGuard(members), COMPOSITE_TIMEOUT_MS);
    }
  }
}

function withLimits(spec: GuardSpec, guard: Guard, defaultTimeoutMs: number): Guard {
  return withGuardLimits(spec.kind, guard, spec.timeout_ms ?? defaultTimeoutMs);
}

/**
 * Builds a guard from its plain-object form `{ kind, ...options }`.
 * @throws GuardSpecError naming the field when the object is not a valid guard.
 * @example createGuard({ kind: "security" }, { language: "python" })
 */
export function createGuard(input: unknown, context: GuardContext = {}, where = "guard"): Guard {
  return build(parseGuardSpec(input, where), context, where);
}
