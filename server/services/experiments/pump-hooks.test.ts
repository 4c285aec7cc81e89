import { describe, expect, it } from "vitest";
import type { DurableStore } from "@/server/durable/durable-store";
import type { ClaimedTurn, TurnSnapshot } from "@/server/durable/types";
import { pumpAfterTurn } from "./pump-hooks";

/** A store that records the statements it is asked to run; an ordinary run's turn must ask none. */
function recordingStore(): { store: DurableStore; statements: string[] } {
  const statements: string[] = [];
  const sql = {
    query: async (statement: string) => {
      statements.push(statement);
      return [{ experimentId: null }];
    },
  };
  return { store: { sql } as unknown as DurableStore, statements };
}

const turn = { runId: "run-1" } as ClaimedTurn;
const snapshotWithoutCase = { runId: "run-1", keyed: new Map() } as unknown as TurnSnapshot;

describe("pumpAfterTurn", () => {
  it("reads nothing for a run outside an experiment when the turn saw its snapshot (the SQLite hot path)", async () => {
    const { store, statements } = recordingStore();
    await pumpAfterTurn(store, turn, "succeeded", snapshotWithoutCase);
    await pumpAfterTurn(store, turn, "suspended", snapshotWithoutCase);
    expect(statements).toEqual([]);
  });

  it("looks the run up only when the turn stopped before reading a snapshot", async () => {
    const { store, statements } = recordingStore();
    await pumpAfterTurn(store, turn, "failed");
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain(`SELECT "experimentId" FROM "Run"`);
  });

  it("does nothing after a turn that frees no slot", async () => {
    const { store, statements } = recordingStore();
    await pumpAfterTurn(store, turn, "deferred");
    await pumpAfterTurn(store, turn, "lost");
    expect(statements).toEqual([]);
  });
});
