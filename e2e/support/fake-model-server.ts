/**
 * The end-to-end tests' model: the project's fake OpenAI-compatible server on a fixed port, which
 * the dashboard under test is configured with (OPENAI_BASE_URL), so runs with the "Configured
 * model" go through the real openai client, streaming included. It answers every request with
 * the same small Python function, streamed slowly enough for the run page to show it arriving,
 * except an agent that was given a tool to ask a person (see askingReply).
 * Started by playwright.config.ts as a web server of its own.
 */
import { startFakeOpenAiServer } from "../../server/testing/fake-openai-server";
import { FAKE_MODEL_REPLY } from "./fake-model-reply";
import { askingReply } from "./fake-model-asks";

const port = Number(process.env.FAKE_MODEL_PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error(`FAKE_MODEL_PORT must be a port number, got "${process.env.FAKE_MODEL_PORT}"`);
// About 16 chunks of 8 characters, 250 ms apart: four seconds of streaming.
const usual = { content: FAKE_MODEL_REPLY, chunkDelayMs: 250 };
const server = await startFakeOpenAiServer([usual], { port, models: ["fake-e2e-model"] });
server.setResponder((body) => askingReply(body) ?? usual);
process.stdout.write(`fake model on ${server.baseURL}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
