import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArtifact, passed } from "../../engine";
import { guardFrom } from "../../engine/testing/scripted-guard";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../../testing/fake-openai-server";
import type { GuardContext } from "../guard-context";
import { createGuard } from "../registry";
import { createAllOfGuard, createAnyOfGuard } from "./composite-guards";
import { EMPTY_ARTIFACT_FEEDBACK, refusingEmpty } from "./refuse-empty";

const artifact = (content: string) => createArtifact({ id: "a", content, version: 1, parentId: null });
const EMPTY_CONTENTS = ["", "   ", "\n\n\t", "\u200b\ufeff"];

describe("no guard passes empty content unless the step allows it", () => {
  let judge: FakeOpenAiServer;
  beforeAll(async () => {
    // A judge that would pass anything: the empty check must come first.
    judge = await startFakeOpenAiServer(['{"verdict": "pass", "score": 1, "feedback": "fine"}']);
  });
  afterAll(() => judge.close());

  const context = (extra: GuardContext = {}): GuardContext => ({ language: "javascript", judge: { baseURL: judge.baseURL, apiKey: "k", model: "judge" }, ...extra });
  const KINDS: [string, Record<string, unknown>][] = [
    ["syntax (javascript)", { kind: "syntax" }],
    ["syntax (typescript)", { kind: "syntax", language: "typescript" }],
    ["syntax (python)", { kind: "syntax", language: "python" }],
    ["test", { kind: "test", test: "const assert = require('assert'); assert.ok(true);" }],
    ["tdd", { kind: "tdd" }],
    ["security", { kind: "security" }],
    ["json_schema that accepts anything", { kind: "json_schema", schema: true }],
    ["llm_judge", { kind: "llm_judge", rubric: "Anything goes" }],
    ["human", { kind: "human" }],
    ["all_of", { kind: "all_of", guards: [{ kind: "syntax" }, { kind: "security" }] }],
    ["any_of with a member that passes nothing's syntax", { kind: "any_of", guards: [{ kind: "json_schema", schema: { type: "object" } }, { kind: "syntax" }] }],
    ["nested composites", { kind: "all_of", guards: [{ kind: "any_of", guards: [{ kind: "syntax" }, { kind: "human" }] }] }],
  ];

  it.each(KINDS)("%s fails empty and whitespace-only content, retryably, without running", async (_name, spec) => {
    const guard = createGuard(spec, context());
    for (const content of EMPTY_CONTENTS) {
      const result = await guard.validate(artifact(content), {});
      expect(result, JSON.stringify(content)).toMatchObject({ passed: false, fatal: false, feedback: EMPTY_ARTIFACT_FEEDBACK });
      expect(result.awaiting).toBeUndefined();
    }
    expect(judge.count).toBe(0);
  });

  it("passes empty content where the step allows it: a lenient syntax check and an any_of holding one", async () => {
    for (const spec of [{ kind: "syntax" }, { kind: "any_of", guards: [{ kind: "json_schema", schema: { type: "object" } }, { kind: "syntax" }] }]) {
      expect(await createGuard(spec, context({ allowEmpty: true })).validate(artifact(""), {})).toMatchObject({ passed: true });
    }
  });

  it.each([
    ["0", { kind: "syntax" }],
    ["{}", { kind: "syntax" }],
    ["{}", { kind: "json_schema", schema: { type: "object" } }],
    ["x = 1", { kind: "any_of", guards: [{ kind: "json_schema", schema: { type: "object" } }, { kind: "syntax", language: "python" }] }],
  ])("keeps passing the benign look-alike %j", async (content, spec) => {
    expect(await createGuard(spec, context()).validate(artifact(content), {})).toMatchObject({ passed: true });
  });
});

describe("refusingEmpty around hand-built composites", () => {
  const lenient = () => guardFrom(() => passed());

  it("an any_of whose members refuse empty content cannot pass it, and no member runs", async () => {
    const members = [lenient(), lenient()];
    const result = await createAnyOfGuard(members.map(refusingEmpty)).validate(artifact(" "), {});
    expect(result.passed).toBe(false);
    expect(result.feedback).toContain(EMPTY_ARTIFACT_FEEDBACK);
    expect(members.map((member) => member.calls)).toEqual([0, 0]);
  });

  it("an all_of of refusing members fails at the first", async () => {
    const result = await createAllOfGuard([refusingEmpty(lenient())]).validate(artifact(""), {});
    expect(result).toMatchObject({ passed: false, feedback: `Guard 1 of 1: ${EMPTY_ARTIFACT_FEEDBACK}` });
  });

  it("hands content that is not empty to the guard it wraps", async () => {
    const inner = lenient();
    expect(await refusingEmpty(inner).validate(artifact("0"), {})).toMatchObject({ passed: true });
    expect(inner.calls).toBe(1);
  });
});

describe("a guard that refuses empty content still hands on the abort signal", () => {
  it("stops a test guard's sandbox when the signal aborts, instead of waiting for its verdict", async () => {
    const guard = createGuard({ kind: "test", test: "const assert = require('assert'); assert.ok(true);", limits: { wall_clock_ms: 20_000 } }, { language: "javascript" });
    const controller = new AbortController();
    const verdict = guard.validate(artifact("while (true) {}"), {}, { signal: controller.signal });
    controller.abort(new Error("cancelled by the test"));
    await expect(verdict).rejects.toThrow("cancelled by the test");
  });
});
