import type { GuardResult, JsonObject, MemoryLedgerStep, StoredArtifact } from "@/server/engine";
import type { GeneratorSpec } from "@/server/generators/generator-spec";
import { readRecordedReply } from "@/server/generators/chat/recorded-reply";
import type { GuardSpec } from "@/server/guards/guard-spec";
import type { GuardObservation } from "./observed-guard";
import type { AttemptReport, GuardVerdictReport, PromptMessage, VerdictKind } from "./step-test-result";

/** What the test saw of one attempt while it ran. */
export interface AttemptTrace {
  readonly attempt: number;
  readonly generationMs: number;
  /** Absent when the generator gave no answer. */
  readonly stored?: StoredArtifact;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly guards: readonly GuardObservation[];
}

export function verdictOf(result: GuardResult): VerdictKind {
  if (result.passed) return "pass";
  return result.fatal ? "fatal" : "fail";
}

/**
 * One attempt as the person testing the step reads it: the prompt from the call ledger (what was
 * sent) or the replay's metadata (what would have been), the raw reply and the artifact, and each
 * listed guard's verdict, "not_run" for those after the first failure.
 */
export function attemptReport(trace: AttemptTrace, step: { readonly name: string; readonly generator?: GeneratorSpec; readonly guards?: readonly GuardSpec[] }, calls: readonly MemoryLedgerStep[]): AttemptReport {
  const prefix = `${step.name}/attempt-${trace.attempt}/`;
  const ofAttempt = calls.filter((entry) => entry.key?.startsWith(prefix));
  const stored = trace.stored;
  const guards = (step.guards ?? []).map((spec, index): GuardVerdictReport => {
    const seen = trace.guards.find((observation) => observation.index === index);
    if (!seen) return { index: index + 1, kind: spec.kind, verdict: "not_run", feedback: "", durationMs: null };
    return { index: index + 1, kind: spec.kind, verdict: verdictOf(seen.result), feedback: seen.result.feedback, durationMs: seen.result.durationMs ?? null };
  });
  // A failed attempt on which no guard ran was refused by the engine's answer check (empty, cut short).
  const answerCheck = stored && !stored.result.passed && trace.guards.length === 0 ? stored.result.feedback : null;
  return {
    attempt: trace.attempt,
    prompt: promptOf(ofAttempt, trace.metadata, step.generator),
    rawOutput: rawReplyOf(ofAttempt),
    artifact: stored?.artifact.content ?? null,
    generationMs: trace.generationMs,
    model: typeof trace.metadata.model === "string" ? trace.metadata.model : null,
    verdict: stored ? verdictOf(stored.result) : "no_answer",
    feedback: stored?.result.feedback ?? "",
    answerCheck,
    guards,
  };
}

function promptOf(calls: readonly MemoryLedgerStep[], metadata: Readonly<Record<string, unknown>>, generator: GeneratorSpec | undefined): PromptMessage[] {
  // A model call records the messages exactly as sent (the first turn's, for an agent).
  const modelCall = calls.find((entry) => entry.type === "action_call" && entry.payload.policy === "model");
  const sent = (modelCall?.payload.payload as JsonObject | undefined)?.messages;
  if (Array.isArray(sent)) {
    return sent.flatMap((message): PromptMessage[] => {
      if (typeof message !== "object" || message === null || Array.isArray(message)) return [];
      const { role, content } = message;
      return (role === "system" || role === "user") && typeof content === "string" ? [{ role, content }] : [];
    });
  }
  // A replayed answer: the prompt the step's own generator would have sent.
  if (typeof metadata.prompt !== "string") return [];
  const system = generator && generator.kind !== "replay" ? generator.system_prompt : undefined;
  return [...(system ? [{ role: "system" as const, content: system }] : []), { role: "user", content: metadata.prompt }];
}

/** The last model reply of the attempt (an agent's final turn), whole, before extraction. */
function rawReplyOf(calls: readonly MemoryLedgerStep[]): string | null {
  const reply = calls.findLast((entry) => entry.type === "action_result" && entry.actor === "model" && entry.key?.endsWith("/model"));
  if (!reply || reply.payload.error === true) return null;
  return readRecordedReply(reply.payload).content;
}
