import { z } from "zod";
import { failed, type GuardResult } from "../../engine";

const answerSchema = z.object({ passed: z.boolean(), feedback: z.string().default("") });

/** The first {...} in the reply, fenced or not: models often wrap JSON in prose or ``` fences. */
function extractJsonObject(reply: string): string | undefined {
  const start = reply.indexOf("{");
  const end = reply.lastIndexOf("}");
  return start >= 0 && end > start ? reply.slice(start, end + 1) : undefined;
}

/** Reads the judge's structured answer; anything else is a failed verdict, never a crash. */
export function parseJudgeAnswer(reply: string): GuardResult {
  const snippet = reply.trim().slice(0, 200) || "(empty reply)";
  const json = extractJsonObject(reply);
  let value: unknown;
  try {
    value = json === undefined ? undefined : JSON.parse(json);
  } catch {
    value = undefined;
  }
  const parsed = answerSchema.safeParse(value);
  if (!parsed.success) {
    return failed(`The LLM judge's answer was not understood (expected JSON {"passed": boolean, "feedback": string}): ${snippet}`);
  }
  const feedback = parsed.data.feedback.trim();
  return { passed: parsed.data.passed, fatal: false, feedback: parsed.data.passed ? feedback : feedback || "The LLM judge rejected the artifact without saying why" };
}
