import { describe, expect, it } from "vitest";
import { CallFailedError, StepConfigurationError, type JsonObject } from "../../../engine";
import type { ToolContext } from "../../../generators/agent/tool-registry";
import type { CodeToolDeclaration } from "../../definition/tools/tool-types";
import { codeTool, CODE_TOOL_OUTPUT_BYTES } from "./code-tool";

const context: ToolContext = { specification: "s", dependencies: {}, stepName: "write", attempt: 1 };
const INPUT_SCHEMA = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };

function declaration(language: "python" | "javascript", code: string, timeout = "5s"): CodeToolDeclaration {
  return { kind: "code", description: "Count words", input_schema: INPUT_SCHEMA, language, code, timeout };
}

/** The call's failure as the model reads it: its code and message. */
async function failure(run: Promise<JsonObject>): Promise<{ code: string; message: string }> {
  const error = await run.then(
    () => expect.fail("expected the call to fail"),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CallFailedError);
  return { code: (error as CallFailedError).code, message: (error as CallFailedError).message };
}

const PROGRAMS = {
  python: {
    words: 'def run(input):\n    return {"words": len(input["text"].split()), "first": input["text"].split()[0]}\n',
    raises: 'def run(input):\n    raise ValueError("no words in " + input["text"])\n',
    loops: "def run(input):\n    while True:\n        pass\n",
    huge: 'def run(input):\n    return {"blob": "x" * 200000}\n',
    notObject: "def run(input):\n    return [1, 2]\n",
  },
  javascript: {
    words: 'function run(input) {\n  const words = input.text.split(/\\s+/).filter(Boolean);\n  return { words: words.length, first: words[0] };\n}\n',
    raises: 'function run(input) {\n  throw new Error("no words in " + input.text);\n}\n',
    loops: "function run(input) {\n  for (;;) {}\n}\n",
    huge: 'function run(input) {\n  return { blob: "x".repeat(200000) };\n}\n',
    notObject: "function run(input) {\n  return [1, 2];\n}\n",
  },
} as const;

for (const language of ["python", "javascript"] as const) {
  const programs = PROGRAMS[language];
  describe(`a ${language} code tool in the real sandbox`, () => {
    it("returns run(input)'s JSON object as the tool's result", async () => {
      const tool = codeTool("word_count", declaration(language, programs.words));
      await expect(tool.run({ text: "the quick brown fox" }, context)).resolves.toEqual({ words: 4, first: "the" });
    });

    it("hands an exception in the code to the model as data (TOOL_ERROR), with the exception's message", async () => {
      const tool = codeTool("word_count", declaration(language, programs.raises));
      const { code, message } = await failure(tool.run({ text: "nothing" }, context));
      expect(code).toBe("TOOL_ERROR");
      expect(message).toMatch(/^word_count raised: .*no words in nothing/);
    });

    it("stops an endless loop at the tool's time limit (TIMEOUT)", async () => {
      const tool = codeTool("word_count", declaration(language, programs.loops, "1s"));
      const started = Date.now();
      const { code, message } = await failure(tool.run({ text: "x" }, context));
      expect(code).toBe("TIMEOUT");
      expect(message).toMatch(/^word_count was stopped at its time limit of 1s/);
      expect(Date.now() - started).toBeLessThan(10_000);
    }, 20_000);

    it("refuses a result larger than the output bound instead of cutting it (OUTPUT_TOO_LARGE)", async () => {
      const tool = codeTool("word_count", declaration(language, programs.huge));
      const { code, message } = await failure(tool.run({ text: "x" }, context));
      expect(code).toBe("OUTPUT_TOO_LARGE");
      expect(message).toContain(`more than ${CODE_TOOL_OUTPUT_BYTES / 1024} KiB`);
    });

    it("refuses a result that is not a JSON object, saying what run returned", async () => {
      const tool = codeTool("word_count", declaration(language, programs.notObject));
      const { code, message } = await failure(tool.run({ text: "x" }, context));
      expect(code).toBe("TOOL_ERROR");
      expect(message).toMatch(/run\(input\) must return a(n object| dict)/);
    });

    it("passes hostile input text through as data, never as code", async () => {
      const tool = codeTool("word_count", declaration(language, programs.words));
      const text = `"""\`); __import__("os") ${"}"} \u2028 end`;
      await expect(tool.run({ text }, context)).resolves.toMatchObject({ first: '"""`);' });
    });
  });
}

describe("a code tool where the sandbox cannot run", () => {
  it("stops the step with a configuration error instead of running the code elsewhere", async () => {
    const tool = codeTool("word_count", declaration("python", PROGRAMS.python.words), { pythonExecutable: "/nonexistent/python3" });
    await expect(tool.run({ text: "a b" }, context)).rejects.toBeInstanceOf(StepConfigurationError);
  });
});
