import type { FakeReply } from "../../server/testing/fake-openai-server";

/** The tool an e2e workflow offers its agent to ask a person (e2e/support/tool-questions.ts). */
export const ASKING_TOOL = "ask_owner";

/**
 * When the agent was offered ASKING_TOOL and has not asked yet, the fake model asks the question
 * its prompt names on a line `ASK: <question>`; once the person's answer is in the conversation it
 * answers with the usual function (undefined: the caller's usual reply).
 */
export function askingReply(body: Record<string, unknown>): FakeReply | undefined {
  const tools = (body.tools as { function?: { name?: string } }[] | undefined) ?? [];
  if (!tools.some((tool) => tool.function?.name === ASKING_TOOL)) return undefined;
  const messages = (body.messages as { role: string; content?: unknown }[] | undefined) ?? [];
  if (messages.some((message) => message.role === "tool")) return undefined;
  const prompt = messages.map((message) => (typeof message.content === "string" ? message.content : "")).join("\n");
  const question = /^ASK: (.+)$/m.exec(prompt)?.[1] ?? "What should I do?";
  return { toolCalls: [{ name: ASKING_TOOL, arguments: JSON.stringify({ question }), id: "call_ask_1" }] };
}
