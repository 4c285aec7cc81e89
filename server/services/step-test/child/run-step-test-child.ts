import { isServiceError } from "../../errors";
import type { StepTestInput } from "../step-test-input";
import type { ModelDirectory } from "@/server/models/model-directory";
import { runStepTest, stepTestSettingsFromEnv } from "../test-step";

/** What the parent writes to the child's stdin: the checked input and the model endpoints it loaded. */
export interface ChildRequest {
  readonly input: StepTestInput;
  readonly models?: ModelDirectory;
}

/** What the child writes to its stdout, one JSON document. */
export type ChildReply = { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly code: string; readonly message: string };

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Reads one step test's input (JSON, already bounded and checked by the parent) from `input`, runs
 * it, and writes the result or the service error as JSON to `output`. SIGTERM from the parent
 * (a cancelled request) aborts it like the request's signal would.
 */
export async function runStepTestChild(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<number> {
  const stop = new AbortController();
  process.once("SIGTERM", () => stop.abort(new Error("cancelled")));
  let reply: ChildReply;
  try {
    const request = JSON.parse(await readAll(input)) as ChildRequest;
    reply = { ok: true, result: await runStepTest(request.input, { signal: stop.signal, settings: { ...stepTestSettingsFromEnv(), models: request.models } }) };
  } catch (error) {
    if (isServiceError(error)) reply = { ok: false, code: error.code, message: error.message };
    else {
      // The parent reports it as an internal error; the cause goes to the server log only.
      process.stderr.write(`step test failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      reply = { ok: false, code: "INTERNAL", message: "internal error" };
    }
  }
  await new Promise<void>((resolve) => output.write(JSON.stringify(reply), () => resolve()));
  return 0;
}
