import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { testConnection } from "./test-connection";

let server: Server | undefined;

/** A real HTTP server on 127.0.0.1 answering every request with `answer`. */
async function serve(answer: (response: ServerResponse) => void): Promise<string> {
  server = createServer((_request, response) => answer(response));
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe("testing a connection to a hostile or broken endpoint", () => {
  it("stops reading a model list larger than 1 MiB and says so", async () => {
    const url = await serve((response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ object: "list", data: Array.from({ length: 40_000 }, (_, index) => ({ id: `model-${index}-${"x".repeat(20)}` })) }));
    });
    expect(await testConnection({ baseURL: url })).toEqual({ ok: false, message: `GET ${url}/models sent more than 1 MiB in answer to the model list; stopped reading` });
  });

  it("gives up on an endpoint that never answers, after its timeout", async () => {
    const url = await serve(() => {});
    expect(await testConnection({ baseURL: url }, { timeoutMs: 300 })).toEqual({ ok: false, message: `GET ${url}/models did not answer within 300 ms` });
  });

  it("reports an answer that is not a model list, and cuts and cleans what the endpoint says", async () => {
    const list = await serve((response) => response.writeHead(200, { "content-type": "application/json" }).end('{"models": []}'));
    expect(await testConnection({ baseURL: list })).toEqual({ ok: false, message: `GET ${list}/models answered, but not with a model list (no "data" array); is the base URL an OpenAI-compatible API?` });
    server?.close();
    const noisy = await serve((response) => response.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `boom\u001b[31m${"!".repeat(500)}` } })));
    const result = await testConnection({ baseURL: noisy });
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(new RegExp(`^GET ${noisy.replace(/[.]/g, "\\.")}/models answered with status 500: boom \\[31m!+…$`));
    expect(result.message.length).toBeLessThan(300);
  });

  it("lists at most 20 model ids and says whether the default model is among them", async () => {
    const url = await serve((response) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data: Array.from({ length: 30 }, (_, index) => ({ id: `m${index}` })) })));
    const result = await testConnection({ baseURL: url, defaultModel: "m25" });
    expect(result).toMatchObject({ ok: true, modelCount: 30, defaultModelListed: true, message: `Connected: GET ${url}/models lists 30 models, including the default model "m25".` });
    expect(result.ok && result.models).toHaveLength(20);
  });
});
