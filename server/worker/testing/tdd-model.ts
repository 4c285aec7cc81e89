import { readFileSync } from "node:fs";
import type { FakeReply } from "../../testing/fake-openai-server";

const cassette = JSON.parse(readFileSync("examples/tdd-lru-cache.cassette.json", "utf8")) as { steps: Record<string, (string | { content: string })[]> };
const content = (step: string, attempt: number) => {
  const entry = cassette.steps[step]?.[attempt - 1];
  if (entry === undefined) throw new Error(`the tdd-lru-cache cassette has no ${step} attempt ${attempt}`);
  return typeof entry === "string" ? entry : entry.content;
};
const fenced = (code: string) => `Here it is:\n\n\`\`\`python\n${code}\n\`\`\``;

/** The prompt of a chat completion request: its last user message. */
export function promptOf(body: Record<string, unknown>): string {
  const messages = body.messages as { role: string; content: string }[];
  return messages.findLast((message) => message.role === "user")?.content ?? "";
}

/**
 * A fake model for the tdd-lru-cache example that answers like its cassette: the tests for the
 * write_tests prompt; for implement, the failing first implementation unless the prompt carries
 * feedback (a history), then the passing one. `chunkDelayMs` slows the stream down.
 */
export function tddModel(chunkDelayMs = 0): (body: Record<string, unknown>) => FakeReply {
  return (body) => {
    const prompt = promptOf(body);
    if (prompt.includes("Write tests for:")) return { content: fenced(content("write_tests", 1)), chunkDelayMs };
    return { content: fenced(content("implement", prompt.includes("The last attempt failed") ? 2 : 1)), chunkDelayMs };
  };
}
