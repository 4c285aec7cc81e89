import { describe, expect, it } from "vitest";
import { createPromptTemplate, failed, initialWorkflowState, MemoryCallLedger, passed, runDualStateAgent, sequentialIds, type EngineEvent, type Generator } from "../../engine";
import { InMemoryArtifactDag } from "../../engine/testing/in-memory-artifact-dag";
import { RecordingObserver } from "../../engine/testing/recording-observer";
import { ScriptedGuard } from "../../engine/testing/scripted-guard";
import { parseCassette } from "../replay/cassette";
import { createReplayGenerator } from "../replay/replay-generator";
import { readAttemptEdit, withEditedAttempt, type AttemptEdit } from "./edited-attempt";

const template = createPromptTemplate({ role: "You write Python.", constraints: "No imports.", task: "Implement the cache." });
const cassette = parseCassette({ steps: { implement: ["v1", "v2", "v3"] } });

/** Runs one step of three attempts (two failures, then a pass) and returns the prompt each attempt was generated from. */
async function promptsOf(generator: Generator): Promise<string[]> {
  const observer = new RecordingObserver();
  const dag = new InMemoryArtifactDag();
  await runDualStateAgent({
    step: { name: "implement", guardId: "g_impl", actionPair: { precondition: () => true, generator, guard: new ScriptedGuard([failed("first is wrong"), failed("second is wrong"), passed()]), template }, guardArtifactDeps: [] },
    rmax: 2,
    specification: "LRU cache",
    ambient: { repository: dag, constraints: "" },
    workflowState: initialWorkflowState,
    dependencies: {},
    dag,
    observer,
    newId: sequentialIds(),
    calls: new MemoryCallLedger(),
  });
  return observer.events.flatMap((event: EngineEvent) => (event.type === "generator.completed" ? [String(event.metadata.prompt)] : []));
}

const replay = () => createReplayGenerator(cassette, { sleep: async () => {} });

describe("withEditedAttempt", () => {
  it("replaces the feedback the edited attempt receives, and only that attempt's", async () => {
    const edit: AttemptEdit = { attemptKey: "implement/attempt-2", feedback: "Use an OrderedDict." };
    const [first, second, third] = await promptsOf(withEditedAttempt(replay(), edit));
    const [, originalSecond, originalThird] = await promptsOf(replay());
    expect(first).not.toContain("GUARD REJECTION");
    expect(originalSecond).toContain("first is wrong");
    expect(second).toContain("Use an OrderedDict.");
    expect(second).not.toContain("first is wrong");
    // Later attempts see the history the engine keeps, as in a run without the edit.
    expect(third).toBe(originalThird);
  });

  it("gives a first attempt the edited feedback as a history entry of its own", async () => {
    const [first] = await promptsOf(withEditedAttempt(replay(), { attemptKey: "implement/attempt-1", feedback: "Mind the capacity of 0." }));
    expect(first).toContain("# HISTORY (Context Refinement)");
    expect(first).toContain("Mind the capacity of 0.");
  });

  it("sends an edited prompt verbatim", async () => {
    const [first, second] = await promptsOf(withEditedAttempt(replay(), { attemptKey: "implement/attempt-1", prompt: "Just write the cache.", feedback: "ignored" }));
    expect(first).toBe("Just write the cache.");
    expect(second).toContain("first is wrong");
  });
});

describe("readAttemptEdit", () => {
  it("reads the edit of a run.forked payload, dropping absent edits", () => {
    expect(readAttemptEdit(undefined)).toBeUndefined();
    expect(readAttemptEdit({ attemptKey: "implement/attempt-1", feedback: "x", prompt: null, fromRunId: "r" })).toEqual({ attemptKey: "implement/attempt-1", feedback: "x" });
  });

  it("names the field of a malformed entry", () => {
    expect(() => readAttemptEdit({ feedback: 3 })).toThrow(/attemptKey: .*feedback: /s);
  });
});
