import { afterEach, describe, expect, it } from "vitest";
import { isLeaseLost } from "./errors";
import { LeaseGate, type LeaseRenewer } from "./lease-gate";
import type { ClaimedTurn } from "./types";

const turn: ClaimedTurn = { runId: "run-1", epoch: 3, turnId: "t", messageId: "m", kind: "start", payload: {}, retryCount: 0, deferReason: null, workerId: "w" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function renewer(answer: () => Promise<boolean>): LeaseRenewer & { calls: number } {
  const store = {
    calls: 0,
    renewLease: () => {
      store.calls++;
      return answer();
    },
  };
  return store;
}

describe("LeaseGate", () => {
  const gates: LeaseGate[] = [];
  afterEach(() => gates.splice(0).forEach((gate) => gate.stop()));

  function gate(store: LeaseRenewer, leaseMs: number, grantedAgoMs = 0) {
    const lost: unknown[] = [];
    const lines: string[] = [];
    const made = new LeaseGate(store, turn, leaseMs, (error) => lost.push(error), (line) => lines.push(line), performance.now() - grantedAgoMs);
    gates.push(made);
    return { gate: made, lost, lines };
  }

  it("lets a turn through without asking the database while the last grant proves the lease", async () => {
    const store = renewer(async () => true);
    const { gate: g } = gate(store, 60_000);
    await g.check();
    await g.check();
    expect(store.calls).toBe(0);
  });

  it("asks the database once the proof ran out, and goes on when it renews the lease", async () => {
    const store = renewer(async () => true);
    const { gate: g, lines } = gate(store, 1_000, 5_000);
    await g.check();
    expect(store.calls).toBe(1);
    await g.check();
    expect(store.calls).toBe(1);
    expect(lines).toEqual([]);
  });

  it("refuses when the database refuses the renewal, says 'lease lost' once and stops the turn once", async () => {
    const store = renewer(async () => false);
    const { gate: g, lost, lines } = gate(store, 1_000, 5_000);
    const first = await g.check().catch((error: unknown) => error);
    const second = await g.check().catch((error: unknown) => error);
    g.markLost();
    expect(isLeaseLost(first) && isLeaseLost(second)).toBe(true);
    expect(store.calls).toBe(1);
    expect(lost).toHaveLength(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^run run-1: lease lost by the turn of epoch 3/);
  });

  it("refuses past the proof when the database cannot be reached", async () => {
    const store = renewer(() => Promise.reject(new Error("connection refused")));
    const { gate: g } = gate(store, 1_000, 5_000);
    await expect(g.check()).rejects.toMatchObject({ name: "LeaseLostError" });
  });

  it("stops the turn by itself when the proof runs out without a renewal (a paused or starved process)", async () => {
    const store = renewer(() => new Promise<boolean>(() => {}));
    const { gate: g, lost, lines } = gate(store, 150);
    g.start();
    await sleep(400);
    expect(g.lost).toBe(true);
    expect(lost).toHaveLength(1);
    expect(lines).toHaveLength(1);
  });

  it("keeps a lease renewed by the heartbeat", async () => {
    const store = renewer(async () => true);
    const { gate: g, lost } = gate(store, 150);
    g.start();
    await sleep(500);
    expect(store.calls).toBeGreaterThanOrEqual(3);
    expect(lost).toHaveLength(0);
    await g.check();
  });

  it("says nothing about a renewal refused after the turn ended (its last commit released the lease)", async () => {
    let answer!: (held: boolean) => void;
    const store = renewer(() => new Promise<boolean>((resolve) => (answer = resolve)));
    const { gate: g, lost, lines } = gate(store, 1_000, 5_000);
    const checked = g.check().catch((error: unknown) => error);
    g.stop();
    answer(false);
    await checked;
    expect(lost).toHaveLength(0);
    expect(lines).toHaveLength(0);
  });
});
