import { actionCallStep, createAction, isErrorStep, textStep, type PolicyEntry } from "../../engine";
import type { ChatMessage } from "../chat/chat-model";
import { readRecordedReply } from "../chat/recorded-reply";
import { transcriptOf } from "./agent-transcript";
import { asJsonMessages, MODEL_POLICY } from "./model-policy";
import type { AgentEnv } from "./tool-registry";

export const ASSISTANT_POLICY = "assistant";

/**
 * The LLM policy of 002 section 6.1, one turn: the conversation from its payload and its own
 * ledger, one recorded model call, and the reply as steps: the text, and an action_call per tool
 * call (arguments as the model wrote them, checked when invoke_action runs them). A failed model
 * call is already in the ledger as an error step; the turn then adds nothing and the loop ends.
 */
export const assistantEntry: PolicyEntry<AgentEnv> = {
  name: ASSISTANT_POLICY,
  description: "The agent: a model that answers the prompt, calling tools when they help.",
  inputSchema: {
    type: "object",
    properties: { system: { type: "string" }, prompt: { type: "string" } },
    required: ["system", "prompt"],
    additionalProperties: false,
  },
  policy: async (action, ctx) => {
    const messages: ChatMessage[] = [
      { role: "system", content: String(action.payload.system) },
      { role: "user", content: String(action.payload.prompt) },
      ...transcriptOf(ctx.getLedger()),
    ];
    const tools = [...action.actions].filter((name) => name !== MODEL_POLICY);
    const [result] = await ctx.call(createAction(MODEL_POLICY, { model: ctx.env.chat.modelName, messages: asJsonMessages(messages), tools }));
    if (!result || isErrorStep(result)) return [];
    const reply = readRecordedReply(result.payload);
    if (reply.toolCalls.length === 0) return [textStep("assistant", reply.content)];
    return [...(reply.content ? [textStep("assistant", reply.content)] : []), ...reply.toolCalls.map((call) => actionCallStep("assistant", call.name, call.arguments, call.id))];
  },
};
