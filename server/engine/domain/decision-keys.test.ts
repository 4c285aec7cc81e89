import { describe, expect, it } from "vitest";
import { attemptKeyOf, classifyDecisionKey, decisionKeyOf, editKeyOf, exhaustedKeyOf } from "./decision-keys";

describe("decision keys", () => {
  it("builds the keys the engine records", () => {
    expect(attemptKeyOf("implement", 2)).toBe("implement/attempt-2");
    expect(decisionKeyOf(attemptKeyOf("implement", 2))).toBe("implement/attempt-2/decision");
    expect(decisionKeyOf(editKeyOf(editKeyOf(attemptKeyOf("implement#3", 1))))).toBe("implement#3/attempt-1/edit/edit/decision");
    expect(decisionKeyOf(exhaustedKeyOf("implement"))).toBe("implement/exhausted/decision");
  });

  it("reads back what it built", () => {
    expect(classifyDecisionKey(decisionKeyOf(attemptKeyOf("implement", 12)))).toEqual({ kind: "attempt", prefix: "implement", attempt: 12, edits: 0 });
    expect(classifyDecisionKey(decisionKeyOf(editKeyOf(editKeyOf(attemptKeyOf("implement#2", 3)))))).toEqual({ kind: "attempt", prefix: "implement#2", attempt: 3, edits: 2 });
    expect(classifyDecisionKey(decisionKeyOf(exhaustedKeyOf("implement")))).toEqual({ kind: "exhausted", prefix: "implement" });
  });

  // The workflow validator accepts any non-empty step name, "/" included: the keys are read from their end.
  it.each(["a/attempt-1", "a/exhausted", "x/attempt-2/edit", "edit", "/attempt-1", "a/decision", "exhausted/decision"])("keeps a step named %j apart from the keys around it", (step) => {
    expect(classifyDecisionKey(decisionKeyOf(attemptKeyOf(step, 4)))).toEqual({ kind: "attempt", prefix: step, attempt: 4, edits: 0 });
    expect(classifyDecisionKey(decisionKeyOf(editKeyOf(attemptKeyOf(step, 1))))).toEqual({ kind: "attempt", prefix: step, attempt: 1, edits: 1 });
    expect(classifyDecisionKey(decisionKeyOf(exhaustedKeyOf(step)))).toEqual({ kind: "exhausted", prefix: step });
  });

  it.each([
    null,
    undefined,
    "",
    "/decision",
    "decision",
    "/exhausted/decision",
    "/attempt-1/decision",
    "implement/attempt-1/verdict",
    "implement/attempt-1/generated",
    "implement/attempt-1",
    "implement/advanced",
    "run.finished",
    "fork",
    "implement/attempt-0/decision",
    "implement/attempt-01/decision",
    "implement/attempt-/decision",
    "implement/attempt-1x/decision",
    "implement/attempt-1/other/decision",
    "implement/attempt-1/exhausted/edit/decision",
    "implement/attempt-1234567890/decision",
    "implement/exhausted/edit/decision",
    "implement/attempt-1/decision/",
    "implement/attempt-1/Decision",
  ])("classifies %j as unknown", (key) => {
    expect(classifyDecisionKey(key)).toEqual({ kind: "unknown" });
  });

  it("reads a hostile key in linear time", () => {
    const many = "/edit".repeat(200_000);
    const started = performance.now();
    expect(classifyDecisionKey(`s/attempt-1${many}/decision`)).toEqual({ kind: "attempt", prefix: "s", attempt: 1, edits: 200_000 });
    expect(classifyDecisionKey(`${"/attempt-".repeat(100_000)}x/decision`)).toEqual({ kind: "unknown" });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
