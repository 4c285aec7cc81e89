import { describe, expect, it } from "vitest";
import { always } from "../domain/action-pair";
import { EMPTY_REPLY_FEEDBACK, isBlank } from "../domain/answer-check";
import { passed } from "../domain/guard-result";
import { initialWorkflowState } from "../domain/workflow-state";
import type { Generation, Generator } from "../ports/generator";
import { sequentialIds } from "../ports/ids";
import { MemoryCallLedger } from "../run/memory-call-ledger";
import { InMemoryArtifactDag } from "../testing/in-memory-artifact-dag";
import { RecordingObserver } from "../testing/recording-observer";
import { guardFrom } from "../testing/scripted-guard";
import { runDualStateAgent, type AgentInput } from "./dual-state-agent";

/** Generations handed out in order, so a test can script an incomplete one. */
function generatorOf(generations: readonly Generation[]): Generator & { calls: number; prompts: string[] } {
  const generator = {
    calls: 0,
    prompts: [] as string[],
    async generate(request: Parameters<Generator["generate"]>[0]) {
      generator.prompts.push(JSON.stringify(request.context.feedbackHistory));
      const next = generations[generator.calls++];
      if (!next) throw new Error("no scripted generation");
      return next;
    },
  };
  return generator;
}

function run(generations: readonly Generation[], options: { rmax?: number; allowEmpty?: boolean } = {}) {
  const generator = generatorOf(generations);
  // The lenient guard of the issue: a syntax check that any text, even none, passes.
  const guard = guardFrom(() => passed());
  const dag = new InMemoryArtifactDag();
  const observer = new RecordingObserver();
  const input: AgentInput = {
    step: { name: "implement", guardId: "g_impl", actionPair: { precondition: always, generator, guard, allowEmpty: options.allowEmpty }, guardArtifactDeps: [] },
    rmax: options.rmax ?? 2,
    specification: "Implement add",
    ambient: { repository: dag, constraints: "" },
    workflowState: initialWorkflowState,
    dependencies: {},
    calls: new MemoryCallLedger(),
    dag,
    observer,
    newId: sequentialIds("a"),
  };
  return { outcome: runDualStateAgent(input), generator, guard, dag, observer };
}

const CUT = "The reply was cut at 262144 bytes: answer more briefly.";

describe("an attempt whose reply is not an answer", () => {
  it.each([
    ["empty", ""],
    ["spaces and newlines", "  \n\t\r\n  "],
    ["no-break and ideographic spaces", "\u00a0\u3000"],
    ["zero-width characters and a BOM", "\u200b\u200d\ufeff"],
    ["control characters", "\u0000\u0007"],
  ])("fails when the reply is %s, with that feedback, and the model is asked again", async (_name, content) => {
    const { outcome, generator, guard, dag } = run([{ content }, { content: "def add(a, b): return a + b" }]);
    const result = await outcome;
    expect(result.kind).toBe("passed");
    expect(result.attempts).toBe(2);
    expect(generator.calls).toBe(2);
    // The guard never saw the empty content: it ran for the second attempt only.
    expect(guard.calls).toBe(1);
    const [first] = dag.all();
    expect(first?.result).toMatchObject({ passed: false, fatal: false, feedback: EMPTY_REPLY_FEEDBACK });
    expect(generator.prompts[1]).toContain("The reply was empty");
  });

  it("fails a reply cut at the size limit with the generator's reason, even though its text is fine", async () => {
    const { outcome, guard, dag } = run([{ content: "def add(a, b):\n    return a +", incomplete: CUT }, { content: "def add(a, b): return a + b" }]);
    expect(await outcome).toMatchObject({ kind: "passed", attempts: 2 });
    expect(guard.calls).toBe(1);
    expect(dag.all()[0]?.result.feedback).toBe(CUT);
  });

  it("honours the retry budget: rmax + 1 empty replies exhaust the step, none passes", async () => {
    const { outcome, generator, guard } = run([{ content: "" }, { content: " " }, { content: "\n" }, { content: "never asked" }], { rmax: 2 });
    const result = await outcome;
    expect(result.kind).toBe("exhausted");
    expect(result.attempts).toBe(3);
    expect(generator.calls).toBe(3);
    expect(guard.calls).toBe(0);
    if (result.kind === "exhausted") expect(result.provenance.map((entry) => entry.feedback)).toEqual([EMPTY_REPLY_FEEDBACK, EMPTY_REPLY_FEEDBACK, EMPTY_REPLY_FEEDBACK]);
  });

  it("lets empty content through to the guard when the step allows it, but never a cut-off reply", async () => {
    const allowed = run([{ content: "" }], { allowEmpty: true });
    expect(await allowed.outcome).toMatchObject({ kind: "passed", attempts: 1 });
    expect(allowed.guard.calls).toBe(1);
    const cut = run([{ content: "", incomplete: CUT }, { content: "" }], { allowEmpty: true });
    expect(await cut.outcome).toMatchObject({ kind: "passed", attempts: 2 });
  });

  it("records the failed attempt like any other: generated, then its verdict", async () => {
    const { outcome, observer } = run([{ content: "" }, { content: "x = 1" }]);
    await outcome;
    const verdicts = observer.events.filter((event) => event.type === "guard.completed");
    expect(verdicts).toHaveLength(2);
    expect(verdicts[0]).toMatchObject({ attempt: 1, result: { passed: false, feedback: EMPTY_REPLY_FEEDBACK } });
  });
});

describe("isBlank", () => {
  it.each(["0", "{}", "''", "pass", ";", "-", "x", "\u200bx", " a "])("keeps the benign look-alike %j", (content) => {
    expect(isBlank(content)).toBe(false);
  });

  it("answers in linear time on a large blank text", () => {
    const started = performance.now();
    expect(isBlank(" ".repeat(4 * 1024 * 1024) + "x")).toBe(false);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
