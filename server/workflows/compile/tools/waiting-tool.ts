import { PolicyInvariantError, type JsonObject } from "../../../engine";
import { ToolsPendingError, type ToolWaitRequest } from "../../../engine/policy/waiting";
import type { ToolContext, ToolDefinition } from "../../../generators/agent/tool-registry";
import { durationMs, WAIT_TIMEOUT_BOUNDS } from "../../definition/tools/duration";
import type { ExternalToolDeclaration, PersonToolDeclaration, WorkflowToolDeclaration } from "../../definition/tools/tool-types";

/** The model's arguments to a waiting tool: stored with the wait and shown to whoever answers it. */
export const WAITING_TOOL_INPUT_BYTES = 64 * 1024;

type WaitingDeclaration = PersonToolDeclaration | WorkflowToolDeclaration | ExternalToolDeclaration;

/**
 * A tool that waits (person, workflow, external): it runs nothing. Each call throws
 * ToolsPendingError with the request the durable store records (server/engine/policy/waiting.ts);
 * the run suspends, and once the result is reported under the call's ledger key the call replays it.
 * In a replayed run a person or external tool with a recorded report (ToolContext.recordedReport)
 * returns it at once instead, recorded in the ledger like any tool's result.
 */
export function waitingTool(name: string, declaration: WaitingDeclaration): ToolDefinition {
  const deadlineAfterMs = durationMs(declaration.timeout, WAIT_TIMEOUT_BOUNDS);
  return {
    name,
    description: declaration.description,
    inputSchema: declaration.input_schema,
    maxInputBytes: WAITING_TOOL_INPUT_BYTES,
    async run(input, context) {
      // A replayed run answers a person or an outside system from the cassette when it recorded
      // them; a workflow tool always starts its sub-run, which replays from the same cassette.
      const recorded = declaration.kind === "workflow" ? undefined : context.recordedReport?.(name);
      if (recorded !== undefined) return recorded;
      throw new ToolsPendingError([waitRequest(name, declaration, input, context, deadlineAfterMs)]);
    },
  };
}

export function waitRequest(name: string, declaration: WaitingDeclaration, input: JsonObject, context: ToolContext, deadlineAfterMs: number): ToolWaitRequest {
  // The report is recorded under this key: without it the result could never reach the call.
  if (!context.identity) throw new PolicyInvariantError(`Tool "${name}" waits for a result, and its call has no identity in the run's ledger`);
  const base = { key: context.identity.key, tool: name, kind: declaration.kind, stepName: context.stepName, attempt: context.attempt, input, deadlineAfterMs };
  switch (declaration.kind) {
    case "person":
      return { ...base, question: String(input.question), resultSchema: declaration.answer_schema };
    case "workflow":
      return { ...base, workflow: declaration.workflow, specification: String(input.specification) };
    case "external":
      return { ...base, ...(declaration.result_schema ? { resultSchema: declaration.result_schema } : {}) };
  }
}
