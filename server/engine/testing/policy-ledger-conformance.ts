/**
 * The contract of a PolicyLedger, for the in-memory one and a durable one alike (002 sections
 * 2.3 and 7.2): a call is performed once per id in its policy's ledger and its result, or its
 * failure as data, comes back on every later call, from the same ledger reopened after a crash
 * too; a sub-policy's ledger is fresh and shares no entry with its parent's or a sibling's;
 * every performed call gets an idempotency key that is stable for the call and unique to it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallFailedError, type CallIdentity, type JsonObject } from "../ports/call-ledger";
import type { PolicyLedger } from "../policy/policy-ledger";

export interface PolicyLedgerHarness {
  /** The root ledger of a fresh run, and the same run's root ledger as a restarted worker opens it. */
  open(): Promise<{ ledger: PolicyLedger; reopen(): PolicyLedger }>;
  dispose(): Promise<void>;
}

const request = { actor: "planner", policy: "lookup", payload: { q: "seattle" } };

export function describePolicyLedgerConformance(name: string, openHarness: () => Promise<PolicyLedgerHarness>): void {
  describe(`PolicyLedger conformance: ${name}`, () => {
    let harness: PolicyLedgerHarness;
    beforeAll(async () => {
      harness = await openHarness();
    });
    afterAll(async () => harness?.dispose());

    function counted(result: JsonObject) {
      const identities: (CallIdentity | undefined)[] = [];
      const perform = async (identity?: CallIdentity) => {
        identities.push(identity);
        return result;
      };
      return Object.assign(perform, { identities });
    }

    it("performs a call once, and replays its result from the reopened ledger", async () => {
      const { ledger, reopen } = await harness.open();
      const perform = counted({ answer: "SEATTLE" });
      const first = await ledger.call("1/lookup", request, perform);
      const afterCrash = await reopen().call("1/lookup", request, perform);
      expect(first).toEqual({ ok: true, result: { answer: "SEATTLE" }, replayed: false });
      expect(afterCrash).toEqual({ ...first, replayed: true });
      expect(perform.identities).toHaveLength(1);
    });

    it("keeps a sub-policy's ledger apart from its parent's and its siblings', and replays each", async () => {
      const { ledger, reopen } = await harness.open();
      // One after another, as the runtime calls: a run's calls are never concurrent.
      const results = [
        await ledger.call("1/lookup", request, async () => ({ from: "parent" })),
        await ledger.child("1/lookup").call("1/lookup", request, async () => ({ from: "child of call 1" })),
        await ledger.child("2/lookup").call("1/lookup", request, async () => ({ from: "child of call 2" })),
        await ledger.child("1/lookup").child("1/lookup").call("1/lookup", request, async () => ({ from: "grandchild" })),
      ];
      expect(results.map((outcome) => outcome.ok && outcome.result.from)).toEqual(["parent", "child of call 1", "child of call 2", "grandchild"]);
      const never = async (): Promise<JsonObject> => expect.fail("a recorded call ran again");
      const again = reopen();
      const replayed = [
        await again.call("1/lookup", request, never),
        await again.child("1/lookup").call("1/lookup", request, never),
        await again.child("2/lookup").call("1/lookup", request, never),
        await again.child("1/lookup").child("1/lookup").call("1/lookup", request, never),
      ];
      expect(replayed.map((outcome) => outcome.ok && outcome.result.from)).toEqual(["parent", "child of call 1", "child of call 2", "grandchild"]);
      expect(again.child("1/lookup").scope).toBe(`${again.scope}/1/lookup`);
    });

    it("records a CallFailedError as data and lets any other exception through unrecorded", async () => {
      const { ledger, reopen } = await harness.open();
      const failed = await ledger.call("1/lookup", request, () => Promise.reject(new CallFailedError("NOT_FOUND", "No city Seattlé")));
      expect(failed).toEqual({ ok: false, error: { error: true, code: "NOT_FOUND", message: "No city Seattlé" }, replayed: false });
      expect(await reopen().call("1/lookup", request, async () => ({}))).toEqual({ ...failed, replayed: true });
      await expect(ledger.call("2/lookup", request, () => Promise.reject(new Error("worker bug")))).rejects.toThrow("worker bug");
      expect(await reopen().call("2/lookup", request, async () => ({ retried: true }))).toEqual({ ok: true, result: { retried: true }, replayed: false });
    });

    it("gives each call an idempotency key: the same after a crash, different for another call, scope or run", async () => {
      const first = await harness.open();
      const second = await harness.open();
      const keys: string[] = [];
      const crash = (identity?: CallIdentity): Promise<JsonObject> => {
        keys.push(identity?.idempotencyKey ?? "none");
        return Promise.reject(new Error("killed"));
      };
      for (const ledger of [first.ledger, first.reopen(), first.ledger.child("1/planner"), second.ledger]) {
        await expect(ledger.call("1/lookup", request, crash)).rejects.toThrow("killed");
      }
      await expect(first.ledger.call("2/lookup", request, crash)).rejects.toThrow("killed");
      expect(keys[0]).toMatch(/^dualstate-/);
      expect(keys[1]).toBe(keys[0]);
      expect(new Set(keys).size).toBe(4);
    });

    it("notes a text once per id, and refuses ids the runtime never makes", async () => {
      const { ledger, reopen } = await harness.open();
      await ledger.note("text-1", "planner", "looking up q0");
      await reopen().note("text-1", "planner", "looking up q0");
      for (const id of ["", "1", "lookup", "1/a/b", "../1/lookup", "0/lookup", "1/ünïcode"]) {
        expect(() => ledger.child(id), id).toThrow(/Not a policy ledger call id/);
        await expect(Promise.resolve().then(() => ledger.call(id, request, async () => ({}))), id).rejects.toThrow(/Not a policy ledger call id/);
      }
      await expect(Promise.resolve().then(() => ledger.note("1/lookup", "planner", "x"))).rejects.toThrow(/Not a policy ledger note id/);
    });
  });
}
