import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createArtifact } from "../../engine";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../../testing/fake-openai-server";
import { createLlmJudgeGuard } from "./llm-judge-guard";

const artifact = createArtifact({ id: "a", content: "def add(a, b):\n    return a + b\n", version: 1, parentId: null });
const rubric = "The function must have a docstring.";

describe("llm_judge guard against an OpenAI-compatible server", () => {
  let server: FakeOpenAiServer;
  beforeAll(async () => {
    server = await startFakeOpenAiServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.requests.splice(0));

  const judge = (options: Partial<Parameters<typeof createLlmJudgeGuard>[0]> = {}) =>
    createLlmJudgeGuard({ kind: "llm_judge", rubric, ...options }, { baseURL: server.baseURL, apiKey: "test", model: "judge-model" });

  it("sends the rubric and the artifact, and reads a passing answer", async () => {
    server.setReplies(['{"passed": true, "feedback": ""}']);
    expect(await judge().validate(artifact, {})).toEqual({ passed: true, fatal: false, feedback: "" });
    const request = server.requests[0] as { model: string; messages: { role: string; content: string }[]; response_format: unknown };
    expect(request.model).toBe("judge-model");
    expect(request.response_format).toEqual({ type: "json_object" });
    expect(request.messages[1]?.content).toContain(`# RUBRIC\n${rubric}`);
    expect(request.messages[1]?.content).toContain("def add(a, b):");
  });

  it("reads a failing answer wrapped in prose and a code fence", async () => {
    server.setReplies(['Here is my verdict:\n```json\n{"passed": false, "feedback": "Add a docstring to add()."}\n```']);
    expect(await judge().validate(artifact, {})).toEqual({ passed: false, fatal: false, feedback: "Add a docstring to add()." });
  });

  it.each(["I think it is fine.", '{"verdict": "pass"}', '{"passed": "yes"}', ""])("turns a malformed answer into a failed verdict: %j", async (reply) => {
    server.setReplies([reply]);
    const result = await judge().validate(artifact, {});
    expect(result).toMatchObject({ passed: false, fatal: false });
    expect(result.feedback).toMatch(/^The LLM judge's answer was not understood/);
  });

  it("turns a server error into a failed verdict with the reason", async () => {
    server.setReplies([{ status: 500, body: { error: { message: "model crashed" } } }]);
    const result = await judge().validate(artifact, {});
    expect(result).toMatchObject({ passed: false, fatal: false });
    expect(result.feedback).toMatch(/^The LLM judge could not be reached \(judge-model\): .*500/);
  });

  it("uses the guard's own model over the default, and can skip JSON mode", async () => {
    server.setReplies(['{"passed": true}']);
    await judge({ model: "other-model", json_mode: false }).validate(artifact, {});
    expect(server.requests[0]).toMatchObject({ model: "other-model" });
    expect(server.requests[0]).not.toHaveProperty("response_format");
  });

  it("refuses to be built without any model", () => {
    expect(() => createLlmJudgeGuard({ kind: "llm_judge", rubric }, { baseURL: server.baseURL })).toThrow(/guard\.model: no model/);
  });
});
