import { describe, expect, it } from "vitest";
import { LeaseLostError } from "./errors";
import { TurnJournal } from "./turn-journal";
import type { ClaimedTurn, TurnBatch, TurnSnapshot } from "./types";

const turn: ClaimedTurn = { runId: "run-1", epoch: 1, turnId: "t", messageId: "m", kind: "start", payload: {}, retryCount: 0, deferReason: null, workerId: "w" };
const request = { actor: "assistant", policy: "model", payload: { model: "m" } };

function journalWith(checkLease: () => Promise<void>) {
  const commits: TurnBatch[] = [];
  const snapshot: TurnSnapshot = { runId: "run-1", specification: "s", definition: {}, contextValues: {}, generatorOverride: undefined, keyed: new Map(), lastSeq: 0, artifacts: [] };
  const store = { commit: async (_turn: ClaimedTurn, batch: TurnBatch) => void commits.push(batch), getArtifact: async () => undefined };
  return { journal: new TurnJournal(store, turn, snapshot, { checkLease }), commits };
}

describe("TurnJournal and the lease", () => {
  it("makes no call when the turn cannot show a valid lease", async () => {
    const { journal } = journalWith(async () => {
      throw new LeaseLostError("run-1", 1);
    });
    let performed = 0;
    await expect(journal.calls.call("k", request, async () => (performed++, { content: "x" }))).rejects.toMatchObject({ name: "LeaseLostError" });
    expect(performed).toBe(0);
  });

  it("records nothing for an engine event when the lease is lost", async () => {
    const { journal, commits } = journalWith(async () => {
      throw new LeaseLostError("run-1", 1);
    });
    await expect(journal.observer.record({ type: "run.started", specification: "s" }, "run.started")).rejects.toMatchObject({ name: "LeaseLostError" });
    await journal.flush();
    expect(commits.flatMap((batch) => batch.ledger)).toEqual([]);
  });

  it("calls once the lease is shown, after committing what led to the call", async () => {
    const order: string[] = [];
    const { journal, commits } = journalWith(async () => void order.push("lease shown"));
    const outcome = await journal.calls.call("k", request, async () => (order.push("called"), { content: "x" }));
    expect(outcome).toEqual({ ok: true, result: { content: "x" }, replayed: false });
    expect(order).toEqual(["lease shown", "called"]);
    expect(commits.map((batch) => batch.ledger.map((row) => row.type))).toEqual([["action_call"], ["action_result"]]);
  });

  it("commits a failed verdict with the retry's model call, before the request is sent, not on its own", async () => {
    const { journal, commits } = journalWith(async () => {});
    const verdict = { type: "guard.completed", step: "implement", attempt: 1, artifactId: "a-1", result: { passed: false, fatal: false, feedback: "too short" } } as const;
    await journal.observer.record(verdict, "implement/attempt-1/verdict");
    expect(commits).toEqual([]);
    let committedBeforeCall: string[][] = [];
    await journal.calls.call("implement/attempt-2", request, async () => {
      committedBeforeCall = commits.map((batch) => batch.ledger.map((row) => row.type));
      return { content: "x" };
    });
    expect(committedBeforeCall).toEqual([["guard.completed", "action_call"]]);
  });
});
