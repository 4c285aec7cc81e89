import type { JsonObject, Generator } from "../../engine";
import { createAgentGenerator, DEFAULT_MAX_TURNS, type AgentGeneratorOptions } from "../agent/agent-generator";
import { recordedReport, type Cassette } from "./cassette";
import { createCassetteChatModel } from "./cassette-chat-model";

export interface AgentReplayOptions extends Omit<AgentGeneratorOptions, "model" | "recordedReport"> {
  readonly cassette: Cassette;
  /** How delay_ms is waited out (tests record instead of sleeping). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * An agent step of a replayed run: the real agent (policy runtime, tools, call ledger) whose model
 * answers from the cassette, turn by turn, and whose waiting tools take the cassette's recorded
 * reports when it has them. Its artifacts say `generator: "replay"`, as every replayed answer's
 * do (a fork of one replays the same turns).
 */
export function createAgentReplayGenerator(options: AgentReplayOptions): Generator {
  const { cassette, sleep, ...agent } = options;
  const maxTurns = agent.maxTurns ?? DEFAULT_MAX_TURNS;
  return {
    async generate(request) {
      // One agent per attempt: the model answers for this step and attempt only.
      const generator = createAgentGenerator({
        ...agent,
        model: createCassetteChatModel({ cassette, stepName: request.stepName, attempt: request.attempt, maxTurns, sleep }),
        recordedReport: (tool, attempt) => recordedReport(cassette, tool, attempt) as JsonObject | undefined,
      });
      const generation = await generator.generate(request);
      return { ...generation, metadata: { ...generation.metadata, generator: "replay", agent: true } };
    },
  };
}
