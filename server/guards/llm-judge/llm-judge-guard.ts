import OpenAI from "openai";
import { CallFailedError, failed, IDEMPOTENCY_HEADER, StepConfigurationError, type CallIdentity, type CallOutcome, type Guard, type GuardCallOptions, type JsonObject } from "../../engine";
import type { JudgeEndpoint, JudgeReplay } from "../guard-context";
import { GuardSpecError, type LlmJudgeSpec } from "../guard-spec";
import { parseJudgeAnswer } from "./parse-judge-answer";

const DEFAULT_TIMEOUT_MS = 60_000;
/** The judge answers with a short JSON object; more than this is cut before it is recorded. */
const MAX_REPLY_CHARS = 65_536;

const SYSTEM_PROMPT = `You are a strict code reviewer acting as a guard in an automated pipeline.
Grade the artifact against the rubric. Answer with a single JSON object and nothing else:
{"passed": true or false, "feedback": "what is wrong and how to fix it, or empty when it passes"}`;

export function renderJudgePrompt(rubric: string, artifact: string): string {
  return `# RUBRIC\n${rubric}\n\n# ARTIFACT\n\`\`\`\n${artifact}\n\`\`\``;
}

/**
 * Asks an OpenAI-compatible model to grade the artifact against the rubric and reads a
 * structured {passed, feedback} answer. An unreachable endpoint or a malformed answer is a
 * failed verdict with the reason. Inside a run the call is in the run's ledger under
 * `<guard key>/judge`, the unreachable case included, so replay gives the same verdict.
 */
export function createLlmJudgeGuard(spec: LlmJudgeSpec, endpoint: JudgeEndpoint = {}, replay?: JudgeReplay): Guard {
  if (replay) return createReplayedJudgeGuard(spec, replay);
  const model = spec.model ?? endpoint.model;
  if (!model) throw new GuardSpecError("guard.model: no model for the LLM judge: set the guard's model option or OPENAI_MODEL");
  const client = new OpenAI({
    baseURL: endpoint.baseURL,
    // Local servers (Ollama, vLLM) accept any key; the SDK refuses to start without one.
    apiKey: endpoint.apiKey ?? "unset",
    maxRetries: 1,
    timeout: spec.timeout_ms ?? DEFAULT_TIMEOUT_MS,
  });
  const temperature = spec.temperature ?? 0;
  const jsonMode = spec.json_mode !== false;
  return {
    async validate(artifact, _dependencies, options) {
      const messages = [
        { role: "system" as const, content: SYSTEM_PROMPT },
        { role: "user" as const, content: renderJudgePrompt(spec.rubric, artifact.content) },
      ];
      const ask = async (identity?: CallIdentity): Promise<JsonObject> => {
        try {
          // The SDK's own retry (maxRetries: 1) resends these options: the same key, deduplicable.
          const completion = await client.chat.completions.create(
            { model, temperature, ...(jsonMode ? { response_format: { type: "json_object" as const } } : {}), messages },
            { signal: options?.signal, ...(identity ? { headers: { [IDEMPOTENCY_HEADER]: identity.idempotencyKey } } : {}) },
          );
          return {
            content: (completion.choices[0]?.message?.content ?? "").slice(0, MAX_REPLY_CHARS),
            model: completion.model ?? model,
            // The judge's tokens count towards the run's usage and budget like a generator's (server/usage).
            usage: judgeUsage(completion.usage),
          };
        } catch (error) {
          // A cancel or shutdown is not the judge's answer: nothing is recorded and the turn ends.
          if (options?.signal?.aborted) throw error;
          throw new CallFailedError("JUDGE_UNREACHABLE", error instanceof Error ? error.message : String(error));
        }
      };
      const outcome = await askOnce(options, { model, temperature, json_mode: jsonMode, messages }, ask);
      if (!outcome.ok) return failed(`The LLM judge could not be reached (${model}): ${outcome.error.message}`);
      return parseJudgeAnswer(typeof outcome.result.content === "string" ? outcome.result.content : "");
    },
  };
}

/** Which attempt a guard call is for, from its ledger key ("implement/attempt-2/guard/1"). */
function attemptOf(callKey: string | undefined): number | undefined {
  const match = callKey === undefined ? null : /(?:^|\/)attempt-(\d+)(?:\/|$)/.exec(callKey);
  return match ? Number(match[1]) : undefined;
}

/**
 * The judge of a run that replays a cassette: attempt N of the step reads the cassette's
 * `judges[step][N - 1]`, through the run's ledger like a live judge's answer. A missing verdict is
 * the cassette's mistake, not the artifact's: the step fails at once, naming what to record.
 */
function createReplayedJudgeGuard(spec: LlmJudgeSpec, replay: JudgeReplay): Guard {
  let unkeyedCalls = 0;
  return {
    async validate(artifact, _dependencies, options) {
      const attempt = attemptOf(options?.callKey) ?? ++unkeyedCalls;
      const verdict = replay.verdicts[attempt - 1];
      if (!verdict) {
        throw new StepConfigurationError(
          `The replayed cassette has no llm_judge verdict for step "${replay.stepName}", attempt ${attempt} (judges.${replay.stepName}[${attempt - 1}]): record one, or run with the configured model`,
        );
      }
      const payload = { model: spec.model ?? "cassette", replay: true, rubric: spec.rubric, artifactLength: artifact.content.length };
      const outcome = await askOnce(options, payload, async () => ({ content: JSON.stringify(verdict), model: "cassette", usage: null }));
      if (!outcome.ok) return failed(`The LLM judge's recorded verdict could not be read: ${outcome.error.message}`);
      return parseJudgeAnswer(typeof outcome.result.content === "string" ? outcome.result.content : "");
    },
  };
}

/**
 * The judge's model call, through the run's ledger when the guard runs inside a run: recorded
 * before the verdict is used, and read back (never asked again) when a resumed run repeats it.
 */
async function askOnce(options: GuardCallOptions | undefined, payload: JsonObject, ask: (identity?: CallIdentity) => Promise<JsonObject>): Promise<CallOutcome> {
  if (options?.calls && options.callKey !== undefined) {
    return options.calls.call(`${options.callKey}/judge`, { actor: "llm_judge", policy: "model", payload }, ask);
  }
  try {
    return { ok: true, result: await ask(), replayed: false };
  } catch (error) {
    if (!(error instanceof CallFailedError)) throw error;
    return { ok: false, error: { error: true, code: error.code, message: error.message }, replayed: false };
  }
}

/** The judge's token counts in the shape recorded replies use (recorded-reply.ts); null when the endpoint sent none. */
function judgeUsage(usage: { prompt_tokens?: unknown; completion_tokens?: unknown; total_tokens?: unknown } | undefined | null): JsonObject | null {
  if (!usage) return null;
  const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0);
  return { promptTokens: count(usage.prompt_tokens), completionTokens: count(usage.completion_tokens), totalTokens: count(usage.total_tokens) };
}
