import {
  DEFAULT_MAX_CALLS_PER_TURN,
  GenerationFailedError,
  invokeAction,
  loopWrapper,
  policyLedgerOn,
  POLICY_ERROR_CODES,
  requestPrompt,
  runPolicy,
  type Generator,
  type GenerationRequest,
  type JsonObject,
  type PolicyRun,
  type Step,
} from "../../engine";
import { cutShortFeedback, readRecordedReply } from "../chat/recorded-reply";
import type { ChatModel } from "../chat/chat-model";
import { extractArtifact } from "../openai/extract-artifact";
import { ASSISTANT_POLICY, assistantEntry } from "./assistant-policy";
import { BUILTIN_TOOLS } from "./builtin-tools";
import { MODEL_POLICY, modelEntry } from "./model-policy";
import { createAgentRegistry, toolEntry, type ToolDefinition } from "./tool-registry";

export const DEFAULT_MAX_TURNS = 8;
/** Tool calls run in one turn; a model asking for more gets an error for the rest (each may run the step's guards). */
export const MAX_TOOL_CALLS_PER_TURN = DEFAULT_MAX_CALLS_PER_TURN;

const SYSTEM_PROMPT = `You are a careful software engineer working inside an automated pipeline.
Use the tools when they help: read the artifacts this step depends on, check drafts against the
step's guards. When you are done, answer with the final artifact only, and make no more tool calls.`;

export interface AgentGeneratorOptions {
  readonly model: ChatModel;
  readonly modelName: string;
  /** Turns of model calls before the loop stops (002's loop wrapper). */
  readonly maxTurns?: number;
  /** Tools added to the built-in ones. */
  readonly tools?: readonly ToolDefinition[];
  readonly extract?: "code" | "text";
  readonly temperature?: number;
  readonly systemPrompt?: string;
  /**
   * A replayed run's recorded result of a waiting tool for an attempt (cassette `reports`), which
   * the tool returns instead of waiting; undefined: it waits. Live runs have none.
   */
  readonly recordedReport?: (tool: string, attempt: number) => JsonObject | undefined;
}

/**
 * The semantic agent of 001 on the policy runtime of 002: the assistant policy under
 * `[loop_wrapper(maxTurns), invoke_action()]`, its tools registry entries with JSON Schemas.
 * Its ledger is held by the run's CallLedger under the attempt's key, so a re-run replays every
 * recorded model turn and tool call without making it. The workflow sees only the final text.
 */
export function createAgentGenerator(options: AgentGeneratorOptions): Generator {
  const registry = createAgentRegistry();
  const tools = [...BUILTIN_TOOLS, ...(options.tools ?? [])];
  for (const tool of tools) registry.register(toolEntry(tool));
  registry.register(modelEntry(registry)).register(assistantEntry);
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  const decorators = [loopWrapper(maxTurns), invokeAction({ maxCallsPerTurn: MAX_TOOL_CALLS_PER_TURN })];
  const recordedReport = options.recordedReport;

  return {
    async generate(request) {
      request.signal?.throwIfAborted();
      const prompt = requestPrompt(request);
      const run = await runPolicy(
        ASSISTANT_POLICY,
        { system: options.systemPrompt ?? SYSTEM_PROMPT, prompt },
        {
          registry,
          env: {
            tools: {
              specification: request.context.specification,
              dependencies: request.dependencies,
              checkDraft: request.checkDraft,
              stepName: request.stepName,
              attempt: request.attempt,
              ...(recordedReport ? { recordedReport: (tool: string) => recordedReport(tool, request.attempt) } : {}),
            },
            chat: { model: options.model, modelName: options.modelName, temperature: options.temperature },
          },
          ledger: policyLedgerOn(request.calls, request.callKey),
          actions: [...tools.map((tool) => tool.name), MODEL_POLICY],
          decorators,
          signal: request.signal,
        },
      );
      const turns = run.trace.filter((call) => call.policy === MODEL_POLICY);
      const last = run.ledger.at(-1);
      if (last?.payload.code === POLICY_ERROR_CODES.maxTurns) {
        throw new GenerationFailedError(`The agent made tool calls on all ${maxTurns} turns without giving a final answer`, "MAX_TURNS");
      }
      const reply = lastModelResult(run);
      if (!reply || reply.payload.error === true) {
        const message = reply ? String(reply.payload.message) : "no model call was made";
        throw new GenerationFailedError(`The agent's model call failed on turn ${turns.length}: ${message}`, reply ? String(reply.payload.code) : undefined);
      }
      const recorded = readRecordedReply(reply.payload);
      const incomplete = cutShortFeedback(recorded);
      return {
        content: extractArtifact(recorded.content, options.extract ?? "code"),
        ...(incomplete ? { incomplete } : {}),
        metadata: metadata(options, request, prompt, run, turns.length, turns.filter((call) => call.replayed).length),
      };
    },
  };
}

function lastModelResult(run: PolicyRun): Step | undefined {
  return run.ledger.steps.findLast((step) => step.type === "action_result" && step.actor === MODEL_POLICY);
}

function metadata(options: AgentGeneratorOptions, request: GenerationRequest, prompt: string, run: PolicyRun, turns: number, replayedTurns: number) {
  const toolCalls = run.trace.filter((call) => call.via === "invoke").length;
  return { generator: "agent", model: options.modelName, prompt, turns, toolCalls, replayedTurns, step: request.stepName };
}
