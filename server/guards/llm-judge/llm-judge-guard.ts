import OpenAI from "openai";
import { failed, type Guard } from "../../engine";
import type { JudgeEndpoint } from "../guard-context";
import { GuardSpecError, type LlmJudgeSpec } from "../guard-spec";
import { parseJudgeAnswer } from "./parse-judge-answer";

const DEFAULT_TIMEOUT_MS = 60_000;

const SYSTEM_PROMPT = `You are a strict code reviewer acting as a guard in an automated pipeline.
Grade the artifact against the rubric. Answer with a single JSON object and nothing else:
{"passed": true or false, "feedback": "what is wrong and how to fix it, or empty when it passes"}`;

export function renderJudgePrompt(rubric: string, artifact: string): string {
  return `# RUBRIC\n${rubric}\n\n# ARTIFACT\n\`\`\`\n${artifact}\n\`\`\``;
}

/**
 * Asks an OpenAI-compatible model to grade the artifact against the rubric and reads a
 * structured {passed, feedback} answer. An unreachable endpoint or a malformed answer is a
 * failed verdict with the reason.
 */
export function createLlmJudgeGuard(spec: LlmJudgeSpec, endpoint: JudgeEndpoint = {}): Guard {
  const model = spec.model ?? endpoint.model;
  if (!model) throw new GuardSpecError("guard.model: no model for the LLM judge: set the guard's model option or OPENAI_MODEL");
  const client = new OpenAI({
    baseURL: endpoint.baseURL,
    // Local servers (Ollama, vLLM) accept any key; the SDK refuses to start without one.
    apiKey: endpoint.apiKey ?? "unset",
    maxRetries: 1,
    timeout: spec.timeout_ms ?? DEFAULT_TIMEOUT_MS,
  });
  return {
    async validate(artifact, _dependencies, call) {
      let reply: string;
      try {
        const completion = await client.chat.completions.create({
          model,
          temperature: spec.temperature ?? 0,
          ...(spec.json_mode === false ? {} : { response_format: { type: "json_object" as const } }),
          messages: [
            { role: "system", content: SYSTEM_PROMPT },
            { role: "user", content: renderJudgePrompt(spec.rubric, artifact.content) },
          ],
        }, { signal: call?.signal });
        reply = completion.choices[0]?.message?.content ?? "";
      } catch (error) {
        return failed(`The LLM judge could not be reached (${model}): ${error instanceof Error ? error.message : String(error)}`);
      }
      return parseJudgeAnswer(reply);
    },
  };
}
