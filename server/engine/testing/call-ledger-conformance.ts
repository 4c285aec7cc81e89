/**
 * The contract of a CallLedger, for the in-memory ledger and the database one alike: a call is
 * performed once per key, its result (or its failure, as data) comes back on every later call
 * with that key, including from a ledger reopened after a crash.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallFailedError, type CallIdentity, type CallLedger, type JsonObject } from "../ports/call-ledger";

export interface CallLedgerHarness {
  /** A ledger for a fresh run. */
  open(): Promise<{ ledger: CallLedger; reopen(): CallLedger; steps(): Promise<{ actor: string; type: string; payload: unknown }[]> }>;
  dispose(): Promise<void>;
}

const request = { actor: "assistant", policy: "model", payload: { model: "m", messages: [{ role: "user", content: "hi" }] } };

export function describeCallLedgerConformance(name: string, openHarness: () => Promise<CallLedgerHarness>): void {
  describe(`CallLedger conformance: ${name}`, () => {
    let harness: CallLedgerHarness;
    beforeAll(async () => {
      harness = await openHarness();
    });
    afterAll(async () => harness?.dispose());

    function counted(result: JsonObject) {
      const perform = async () => {
        perform.calls += 1;
        return result;
      };
      perform.calls = 0;
      return perform;
    }

    it("performs a call once and returns the recorded result for the same key afterwards", async () => {
      const { ledger, reopen } = await harness.open();
      const perform = counted({ content: "class LRUCache: ...", usage: { totalTokens: 12 } });
      const first = await ledger.call("implement/attempt-1/model", request, perform);
      const second = await ledger.call("implement/attempt-1/model", request, perform);
      const afterCrash = await reopen().call("implement/attempt-1/model", request, perform);
      expect(perform.calls).toBe(1);
      expect(first).toEqual({ ok: true, result: { content: "class LRUCache: ...", usage: { totalTokens: 12 } }, replayed: false });
      expect(second).toEqual({ ...first, replayed: true });
      expect(afterCrash).toEqual({ ...first, replayed: true });
    });

    it("keeps different keys apart", async () => {
      const { ledger } = await harness.open();
      const a = await ledger.call("s/attempt-1/model", request, async () => ({ content: "one" }));
      const b = await ledger.call("s/attempt-2/model", request, async () => ({ content: "two" }));
      expect([a.ok && a.result.content, b.ok && b.result.content]).toEqual(["one", "two"]);
    });

    it("records a CallFailedError as data and replays it without calling again", async () => {
      const { ledger, reopen } = await harness.open();
      let calls = 0;
      const failing = async (): Promise<JsonObject> => {
        calls += 1;
        throw new CallFailedError("RATE_LIMITED", "429 after 4 attempts");
      };
      const first = await ledger.call("k", request, failing);
      expect(first).toEqual({ ok: false, error: { error: true, code: "RATE_LIMITED", message: "429 after 4 attempts" }, replayed: false });
      expect(await reopen().call("k", request, failing)).toEqual({ ...first, replayed: true });
      expect(calls).toBe(1);
    });

    it("lets other exceptions propagate without recording a result, so the call is made again", async () => {
      const { ledger } = await harness.open();
      await expect(ledger.call("k", request, () => Promise.reject(new Error("worker bug")))).rejects.toThrow("worker bug");
      const retried = await ledger.call("k", request, async () => ({ content: "ok" }));
      expect(retried).toMatchObject({ ok: true, replayed: false });
    });

    it("writes an action_call before and an action_result after each performed call, and notes once per key", async () => {
      const { ledger, reopen, steps } = await harness.open();
      await ledger.call("k", request, async () => ({ content: "x" }));
      await ledger.call("k", request, async () => ({ content: "never" }));
      await ledger.note("k/turn-1", "assistant", "Let me read the tests first.");
      await reopen().note("k/turn-1", "assistant", "Let me read the tests first.");
      expect(await steps()).toEqual([
        { actor: "assistant", type: "action_call", payload: { policy: "model", payload: request.payload, idempotencyKey: expect.stringMatching(/^dualstate-[A-Za-z0-9_-]{32}$/) } },
        { actor: "model", type: "action_result", payload: { content: "x" } },
        { actor: "assistant", type: "text", payload: { text: "Let me read the tests first." } },
      ]);
    });

    it("hands perform the call's identity: stable for the key across a crash, different between keys and between runs", async () => {
      const first = await harness.open();
      const second = await harness.open();
      const seen: (CallIdentity | undefined)[] = [];
      const crashing = (identity?: CallIdentity) => {
        seen.push(identity);
        return Promise.reject(new Error("worker killed before the result was recorded"));
      };
      await expect(first.ledger.call("implement/attempt-1/model", request, crashing)).rejects.toThrow("worker killed");
      await expect(first.reopen().call("implement/attempt-1/model", request, crashing)).rejects.toThrow("worker killed");
      await expect(first.ledger.call("implement/attempt-2/model", request, crashing)).rejects.toThrow("worker killed");
      await expect(second.ledger.call("implement/attempt-1/model", request, crashing)).rejects.toThrow("worker killed");
      const keys = seen.map((identity) => identity?.idempotencyKey);
      expect(seen[0]).toEqual({ key: "implement/attempt-1/model", idempotencyKey: expect.stringMatching(/^dualstate-[A-Za-z0-9_-]{32}$/) });
      expect(keys[1]).toBe(keys[0]);
      expect(new Set([keys[0], keys[2], keys[3]]).size).toBe(3);
      const sent = (await first.steps()).filter((step) => step.type === "action_call").map((step) => (step.payload as { idempotencyKey?: string }).idempotencyKey);
      expect(sent).toEqual([keys[0], keys[1], keys[2]]);
    });
  });
}
