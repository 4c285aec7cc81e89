import { createHash } from "node:crypto";
import { MemoryCallLedger } from "../run/memory-call-ledger";
import { describe, expect, it } from "vitest";
import { isEngineError, PreconditionNotMetError } from "../errors";
import { InMemoryArtifactDag } from "../testing/in-memory-artifact-dag";
import { ScriptedGenerator } from "../testing/scripted-generator";
import { ScriptedGuard } from "../testing/scripted-guard";
import { always, canExecute, executeActionPair, requiresGuards, type ActionPair } from "./action-pair";
import { createArtifact, hashContent } from "./artifact";
import { composeContext } from "./context";
import { failed, passed } from "./guard-result";
import { createPromptTemplate } from "./prompt-template";
import { initialWorkflowState, satisfy } from "./workflow-state";

const context = composeContext({ repository: new InMemoryArtifactDag(), constraints: "" }, "spec");
const identity = { stepName: "implement", artifactId: "art-2", attempt: 2, parentId: "art-1" };
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");


const services = { calls: new MemoryCallLedger(), callKey: "s/attempt-1" };

describe("preconditions", () => {
  it("always holds; requiresGuards holds once every listed guard is satisfied", () => {
    const needsBoth = requiresGuards(["g_test", "g_lint"]);
    const one = satisfy(initialWorkflowState, "g_test", "a");
    expect(always(initialWorkflowState)).toBe(true);
    expect(needsBoth(initialWorkflowState)).toBe(false);
    expect(needsBoth(one)).toBe(false);
    expect(needsBoth(satisfy(one, "g_lint", "b"))).toBe(true);
    expect(requiresGuards([])(initialWorkflowState)).toBe(true);
  });

  it("canExecute evaluates the pair's precondition on the given state", () => {
    const pair: ActionPair = { precondition: requiresGuards(["g_test"]), generator: new ScriptedGenerator([]), guard: new ScriptedGuard([]) };
    expect(canExecute(pair, initialWorkflowState)).toBe(false);
    expect(canExecute(pair, satisfy(initialWorkflowState, "g_test", "a"))).toBe(true);
  });
});

describe("executeActionPair", () => {
  it("throws PRECONDITION_NOT_MET naming the step and calls neither generator nor guard when ρ fails", async () => {
    const generator = new ScriptedGenerator(["never"]);
    const guard = new ScriptedGuard([passed()]);
    const pair: ActionPair = { precondition: requiresGuards(["g_test"]), generator, guard };

    const error = await executeActionPair(pair, initialWorkflowState, context, {}, identity, services).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isEngineError(error, "PRECONDITION_NOT_MET")).toBe(true);
    expect(error).toBeInstanceOf(PreconditionNotMetError);
    expect((error as Error).message).toContain('"implement"');
    expect(generator.calls).toBe(0);
    expect(guard.calls).toHaveLength(0);
  });

  it("hands the generator the context, template, step name and attempt", async () => {
    const template = createPromptTemplate({ role: "r", constraints: "c", task: "t" });
    const generator = new ScriptedGenerator(["content"]);
    await executeActionPair({ precondition: always, generator, guard: new ScriptedGuard([passed()]), template }, initialWorkflowState, context, {}, identity, services);
    expect(generator.requests).toHaveLength(1);
    const request = generator.requests[0]!;
    expect(request.context).toBe(context);
    expect(request.template).toBe(template);
    expect(request.stepName).toBe("implement");
    expect(request.attempt).toBe(2);
  });

  it("hands the guard exactly the dependencies passed, and the artifact it just built", async () => {
    const guard = new ScriptedGuard([failed("nope")]);
    const testArtifact = createArtifact({ id: "t-1", content: "def test(): ...", version: 1, parentId: null });
    const dependencies = Object.freeze({ test: testArtifact });
    const outcome = await executeActionPair(
      { precondition: always, generator: new ScriptedGenerator(["impl"]), guard },
      initialWorkflowState,
      context,
      dependencies,
      identity,
      services,
    );
    expect(guard.calls).toHaveLength(1);
    expect(guard.calls[0]!.dependencies).toBe(dependencies);
    expect(Object.keys(guard.calls[0]!.dependencies)).toEqual(["test"]);
    expect(guard.calls[0]!.artifact).toBe(outcome.artifact);
    expect(outcome.result).toEqual({ passed: false, feedback: "nope", fatal: false });
  });

  it("builds the artifact from the identity, with a sha256 content hash", async () => {
    const content = "class LRUCache:\n    pass  # ünïcode ✓";
    const outcome = await executeActionPair(
      { precondition: always, generator: new ScriptedGenerator([content]), guard: new ScriptedGuard([passed()]) },
      initialWorkflowState,
      context,
      {},
      identity,
      services,
    );
    expect(outcome.artifact).toEqual({ id: "art-2", content, version: 2, parentId: "art-1", contentHash: sha256(content) });
    expect(outcome.artifact.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.isFrozen(outcome.artifact)).toBe(true);
    expect(outcome.generation.content).toBe(content);
    expect(outcome.generation.metadata).toMatchObject({ generator: "scripted" });
  });

  it("a first attempt has no parent", async () => {
    const outcome = await executeActionPair(
      { precondition: always, generator: new ScriptedGenerator(["x"]), guard: new ScriptedGuard([passed()]) },
      initialWorkflowState,
      context,
      {},
      { stepName: "s", artifactId: "a-1", attempt: 1, parentId: null },
      services,
    );
    expect(outcome.artifact.parentId).toBeNull();
    expect(outcome.artifact.version).toBe(1);
  });
});

describe("hashContent", () => {
  it("is the hex sha256 of the UTF-8 content", () => {
    expect(hashContent("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(hashContent("héllo")).toBe(sha256("héllo"));
    expect(hashContent("a")).not.toBe(hashContent("b"));
  });
});
