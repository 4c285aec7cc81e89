import { describe, expect, it } from "vitest";
import { collectStepRuns, stepOrder, type LedgerFact } from "./step-runs";

let seq = 0;
const at = new Date("2026-01-01T00:00:00.000Z");
const fact = (type: string, payload: Record<string, unknown>): LedgerFact => ({ seq: ++seq, type, createdAt: at, payload });

describe("collectStepRuns", () => {
  it("keeps where each step ran, a transition's decision, and the artifacts of its output and failed attempts", () => {
    const runs = collectStepRuns(
      [
        fact("step.started", { step: "choose", kind: "transition", state: "reflecting" }),
        fact("step.attempt_failed", { step: "choose", kind: "transition", attempt: 1, reason: 'not one of "ship"', artifactId: "a-1" }),
        fact("step.completed", { step: "choose", kind: "transition", output: "ship", to: "shipping", artifactId: "a-2", state: "reflecting" }),
        fact("step.started", { step: "compute", kind: "code", state: "shipping" }),
        fact("step.completed", { step: "compute", kind: "code", output: '{"n":1}', updates: { n: 1 }, artifactId: "a-3", state: "shipping" }),
      ],
      null,
    );
    expect(runs.map((run) => [run.step, run.state, run.output, run.chosenState, run.artifactId])).toEqual([
      ["choose", "reflecting", "ship", "shipping", "a-2"],
      ["compute", "shipping", '{"n":1}', null, "a-3"],
    ]);
    expect(runs[0]?.failedAttempts).toEqual([{ attempt: 1, reason: 'not one of "ship"', artifactId: "a-1" }]);
  });

  it("pairs each start with its completion: an llm step's answer and prompt, a code step's updates, a revisit keyed by its visit", () => {
    const runs = collectStepRuns(
      [
        fact("step.started", { step: "observe", kind: "code" }),
        fact("step.completed", { step: "observe", kind: "code", updates: { seen: true } }),
        fact("step.started", { step: "implement", guardId: "g_impl", dependencyIds: {} }),
        fact("step.started", { step: "ideate", kind: "llm" }),
        fact("step.completed", { step: "ideate", kind: "llm", output: "an idea", prompt: "# TASK\nIdeate" }),
        fact("step.started", { step: "observe", kind: "code" }),
        fact("step.completed", { step: "observe", kind: "code", updates: {} }),
      ],
      null,
    );
    expect(runs.map((run) => [run.key, run.kind, run.status, run.output, run.prompt, run.updates])).toEqual([
      ["observe", "code", "completed", null, null, { seen: true }],
      ["ideate", "llm", "completed", "an idea", "# TASK\nIdeate", null],
      ["observe#2", "code", "completed", null, null, {}],
    ]);
  });

  it("a step still running is running while the run goes on; once the run ended it failed (the failed step) or was stopped", () => {
    const facts = [fact("step.started", { step: "reflect", kind: "transition" })];
    expect(collectStepRuns(facts, null)[0]).toMatchObject({ status: "running" });
    expect(collectStepRuns(facts, { failedStep: "reflect", reason: 'answer "maybe" is not one of "ship"' })[0]).toMatchObject({ status: "failed", reason: 'answer "maybe" is not one of "ship"' });
    expect(collectStepRuns(facts, { failedStep: "(run)", reason: "Cancelled by a@b.c: no" })[0]).toMatchObject({ status: "stopped", reason: null });
  });

  it("a run recorded before these steps had a start shows each completion on its own", () => {
    const runs = collectStepRuns([fact("step.completed", { step: "reflect", kind: "transition", output: "ship" })], null);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ key: "reflect", status: "completed", output: "ship", prompt: null });
  });

  it("keeps each failed attempt's reason; a step that spent its budget is skipped while the run goes on, failed when it ended the run", () => {
    const facts = [
      fact("step.started", { step: "think", kind: "llm" }),
      fact("step.attempt_failed", { step: "think", kind: "llm", attempt: 1, reason: "empty reply" }),
      fact("step.attempt_failed", { step: "think", kind: "llm", attempt: 2, reason: "cut short" }),
      fact("step.exhausted", { step: "think", attempts: 2 }),
    ];
    const skipped = collectStepRuns([...facts, fact("step.started", { step: "compute", kind: "code" }), fact("step.completed", { step: "compute", kind: "code", updates: {} })], null);
    expect(skipped[0]).toMatchObject({ status: "skipped", reason: null, failedAttempts: [{ attempt: 1, reason: "empty reply" }, { attempt: 2, reason: "cut short" }] });
    expect(skipped[1]).toMatchObject({ status: "completed", failedAttempts: [] });
    expect(collectStepRuns(facts, { failedStep: "think", reason: "cut short (after 2 attempts)" })[0]).toMatchObject({ status: "failed", reason: "cut short (after 2 attempts)" });
    expect(collectStepRuns(facts, { failedStep: "later", reason: "x" })[0]).toMatchObject({ status: "skipped" });
  });

  it("a step that retried and then answered is completed with its failed attempts", () => {
    const runs = collectStepRuns(
      [
        fact("step.started", { step: "reflect", kind: "transition" }),
        fact("step.attempt_failed", { step: "reflect", kind: "transition", attempt: 1, reason: 'answer "maybe" is not one of "ship"' }),
        fact("step.completed", { step: "reflect", kind: "transition", output: "ship" }),
      ],
      null,
    );
    expect(runs[0]).toMatchObject({ status: "completed", output: "ship", failedAttempts: [{ attempt: 1, reason: 'answer "maybe" is not one of "ship"' }] });
  });

  it("ignores action pairs and malformed entries", () => {
    expect(collectStepRuns([fact("step.started", { step: "implement", guardId: "g" }), fact("step.completed", { kind: "llm" }), fact("step.started", { step: "x", kind: "other" })], null)).toEqual([]);
  });
});

describe("stepOrder", () => {
  it("lists each step once, in the order it first started", () => {
    expect(
      stepOrder([
        fact("run.started", {}),
        fact("step.completed", { step: "observe", kind: "code" }),
        fact("step.started", { step: "implement", guardId: "g" }),
        fact("step.started", { step: "observe", kind: "code" }),
        fact("step.started", { step: "reflect", kind: "transition" }),
      ]),
    ).toEqual(["observe", "implement", "reflect"]);
  });
});
