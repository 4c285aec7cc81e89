import { describe, expect, it } from "vitest";
import { attemptOrigins, cancellationOf, forkEditOf } from "./ledger-facts";
import type { LedgerFact } from "./step-runs";

const at = new Date("2026-01-01T12:00:00.000Z");
const fact = (seq: number, type: string, payload: Record<string, unknown>): LedgerFact => ({ seq, type, createdAt: at, payload });

describe("attemptOrigins", () => {
  it("reads each attempt's prompt and generator from its generator.completed entry", () => {
    const origins = attemptOrigins([
      fact(1, "generator.completed", { artifactId: "a-1", metadata: { generator: "replay", prompt: "# TASK\nWrite tests" } }),
      fact(2, "generator.completed", { artifactId: "a-2", metadata: { generator: "openai" } }),
      fact(3, "generator.completed", { metadata: { prompt: "no artifact" } }),
      fact(4, "guard.completed", { artifactId: "a-3" }),
    ]);
    expect([...origins]).toEqual([
      ["a-1", { prompt: "# TASK\nWrite tests", generator: "replay" }],
      ["a-2", { prompt: null, generator: "openai" }],
    ]);
  });
});

describe("cancellationOf", () => {
  it("names who cancelled, why and when", () => {
    expect(cancellationOf([fact(1, "run.started", {}), fact(2, "run.cancelled", { by: "alice@example.com", reason: "not needed" })])).toEqual({ by: "alice@example.com", reason: "not needed", at });
  });

  it("a cancel without a person (command line) has no name; a run never cancelled has none", () => {
    expect(cancellationOf([fact(1, "run.cancelled", { by: null, reason: "stop" })])).toEqual({ by: null, reason: "stop", at });
    expect(cancellationOf([fact(1, "run.finished", {})])).toBeNull();
  });
});

describe("forkEditOf", () => {
  it("reads the edited feedback and prompt of a fork, and who forked it", () => {
    expect(forkEditOf([fact(1, "run.forked", { feedback: "Cover capacity 1", prompt: null, forkedBy: "bob@example.com" })])).toEqual({ feedback: "Cover capacity 1", prompt: null, forkedBy: "bob@example.com" });
    expect(forkEditOf([fact(1, "run.started", {})])).toBeNull();
  });
});
