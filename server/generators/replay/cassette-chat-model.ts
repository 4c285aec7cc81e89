/**
 * A ChatModel that answers an agent step's model turns from a cassette (see cassette.ts): the
 * step's entries are its turns in order across its attempts, each attempt ending at a final
 * answer (an entry without tool_calls) or after `maxTurns` turns. The agent around it is the
 * real one, so its tools run and every turn goes through the run's call ledger as a live turn
 * does; a turn already in the ledger (a resumed or crashed run) is read from there and never
 * reaches this model.
 */
import { abortableSleep, CallFailedError } from "../../engine";
import type { ChatModel, ChatReply, ChatRequest } from "../chat/chat-model";
import { attemptContent, attemptDelayMs, attemptToolCalls, MAX_DELAY_MS, type Cassette, type CassetteAttempt } from "./cassette";
import { CASSETTE_EXHAUSTED } from "./replay-generator";

/** One attempt's turns and where they start in the step's entries (for error messages). */
export interface AttemptTurns {
  readonly first: number;
  readonly turns: readonly CassetteAttempt[];
}

/** Splits a step's entries into attempts: each ends at a final answer or after `maxTurns` turns. */
export function agentAttempts(entries: readonly CassetteAttempt[], maxTurns: number): AttemptTurns[] {
  const attempts: AttemptTurns[] = [];
  let current: CassetteAttempt[] = [];
  let first = 0;
  entries.forEach((entry, index) => {
    current.push(entry);
    if (attemptToolCalls(entry).length === 0 || current.length === maxTurns) {
      attempts.push({ first, turns: current });
      current = [];
      first = index + 1;
    }
  });
  if (current.length > 0) attempts.push({ first, turns: current });
  return attempts;
}

export interface CassetteChatModelOptions {
  readonly cassette: Cassette;
  readonly stepName: string;
  /** The attempt being generated, from 1. */
  readonly attempt: number;
  /** The agent's turn limit (its `max_turns`), which also ends an attempt. */
  readonly maxTurns: number;
  /** How delay_ms is waited out; it must reject with the signal's reason when the signal aborts. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The turns the request's conversation has already taken in this attempt: one assistant message each. */
function turnsTaken(request: ChatRequest): number {
  return request.messages.filter((message) => message.role === "assistant").length;
}

function exhausted(options: CassetteChatModelOptions, turn: number, recorded: readonly CassetteAttempt[], attempts: readonly AttemptTurns[]): string {
  const { stepName: step, attempt } = options;
  if (recorded.length === 0) return `Cassette has no step "${step}" (its agent asked for turn ${turn} of attempt ${attempt})`;
  const mine = attempts[attempt - 1];
  if (!mine) {
    return `Cassette exhausted for step "${step}": its agent asked for turn ${turn} of attempt ${attempt}, and the cassette's ${recorded.length} turn${recorded.length === 1 ? "" : "s"} make${recorded.length === 1 ? "s" : ""} ${attempts.length} attempt${attempts.length === 1 ? "" : "s"}`;
  }
  return `Cassette exhausted for step "${step}": its agent asked for turn ${turn} of attempt ${attempt}, and that attempt's turns (entries ${mine.first}..${mine.first + mine.turns.length - 1}) end after turn ${mine.turns.length} without a final answer`;
}

/**
 * The model of one attempt of one agent step. Which turn to answer is read from the conversation
 * (the number of assistant messages in it), never counted in memory, so an attempt resumed after
 * a wait or a crash asks for the right entry.
 * @throws CallFailedError (CASSETTE_EXHAUSTED, naming the step) when the cassette has no such turn:
 *   recorded as the failed model call, which fails the step with that reason.
 */
export function createCassetteChatModel(options: CassetteChatModelOptions): ChatModel {
  const sleep = options.sleep ?? abortableSleep;
  const { cassette, stepName } = options;
  // Own keys only: a step named "constructor" must not find Object.prototype's.
  const recorded = Object.hasOwn(cassette.steps, stepName) ? cassette.steps[stepName]! : [];
  const attempts = agentAttempts(recorded, options.maxTurns);
  return {
    async complete(request) {
      const index = turnsTaken(request);
      const entry = attempts[options.attempt - 1]?.turns[index];
      if (entry === undefined) throw new CallFailedError(CASSETTE_EXHAUSTED, exhausted(options, index + 1, recorded, attempts));
      const delayMs = Math.min(attemptDelayMs(entry), MAX_DELAY_MS);
      if (delayMs > 0) await sleep(delayMs, request.signal);
      const calls = attemptToolCalls(entry);
      const content = attemptContent(entry);
      if (content && request.onToken) request.onToken(content);
      const reply: ChatReply = {
        content,
        // Ids are the model's; a recorded turn's are made stable from its place in the attempt.
        toolCalls: calls.map((call, position) => ({ id: `call_${options.attempt}_${index + 1}_${position + 1}`, name: call.name, arguments: call.arguments })),
        model: request.model,
        usage: null,
        latencyMs: delayMs,
        finishReason: calls.length > 0 ? "tool_calls" : "stop",
        truncated: false,
        attempts: 1,
      };
      return reply;
    },
  };
}
