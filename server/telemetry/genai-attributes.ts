/**
 * The OpenTelemetry GenAI semantic conventions (semconv 1.40+, status "Development") that the
 * spans use, named once. Copied rather than imported from @opentelemetry/semantic-conventions'
 * incubating entry point, as that package advises for conventions that may still change.
 * https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/
 */
export const GEN_AI = {
  OPERATION_NAME: "gen_ai.operation.name",
  PROVIDER_NAME: "gen_ai.provider.name",
  /** The name before semconv 1.37 (gen_ai.provider.name replaced it); still read by many backends. */
  SYSTEM: "gen_ai.system",
  REQUEST_MODEL: "gen_ai.request.model",
  REQUEST_TEMPERATURE: "gen_ai.request.temperature",
  RESPONSE_MODEL: "gen_ai.response.model",
  RESPONSE_FINISH_REASONS: "gen_ai.response.finish_reasons",
  USAGE_INPUT_TOKENS: "gen_ai.usage.input_tokens",
  USAGE_OUTPUT_TOKENS: "gen_ai.usage.output_tokens",
  TOOL_NAME: "gen_ai.tool.name",
  WORKFLOW_NAME: "gen_ai.workflow.name",
} as const;

/** gen_ai.operation.name values. */
export const GEN_AI_OPERATION = { CHAT: "chat", EXECUTE_TOOL: "execute_tool", INVOKE_WORKFLOW: "invoke_workflow" } as const;

/** Every model endpoint Dualstate calls speaks the OpenAI chat-completions protocol. */
export const GEN_AI_PROVIDER = "openai";

/** The general (stable) conventions used beside them. */
export { ATTR_ERROR_TYPE as ERROR_TYPE } from "@opentelemetry/semantic-conventions";
