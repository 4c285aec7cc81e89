import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MemoryCallLedger } from "../engine";
import type { LiveCallWriter } from "../durable/live-call-writer";
import { LiveCallRelay } from "./live-call-relay";

/** Records what the relay asks of the database, in order. */
function recordingWriter(fail = false) {
  const calls: string[] = [];
  const writer = {
    async write(runId: string, epoch: number, call: { stepName: string; attempt: number; text: string }) {
      calls.push(`write ${runId}@${epoch} ${call.stepName}/${call.attempt} ${JSON.stringify(call.text)}`);
      if (fail) throw new Error("database went away");
    },
    async clear(runId: string, epoch: number) {
      calls.push(`clear ${runId}@${epoch}`);
    },
  };
  return { writer: writer as unknown as LiveCallWriter, calls };
}

const token = (text: string, attempt = 1) => ({ stepName: "implement", attempt, token: text });

describe("LiveCallRelay", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("writes the text so far at most once per interval, and deletes it when the call settles", async () => {
    const { writer, calls } = recordingWriter();
    const relay = new LiveCallRelay(writer, "run-1", 3, 200);
    relay.onToken(token("def "));
    relay.onToken(token("get"));
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    relay.onToken(token("(self)"));
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toEqual(['write run-1@3 implement/1 "def get"']);
    await vi.advanceTimersByTimeAsync(100);
    await relay.settle();
    expect(calls).toEqual(['write run-1@3 implement/1 "def get"', 'write run-1@3 implement/1 "def get(self)"', "clear run-1@3"]);
  });

  it("costs nothing when no token arrived: settling writes and deletes nothing", async () => {
    const { writer, calls } = recordingWriter();
    const relay = new LiveCallRelay(writer, "run-1", 1);
    const ledger = relay.ledger(new MemoryCallLedger());
    await ledger.call("write_tests/attempt-1/replay", { actor: "assistant", policy: "replay", payload: {} }, async () => ({ content: "x" }));
    await relay.settle();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toEqual([]);
  });

  it("settles after each call through its ledger, once the result is in", async () => {
    const { writer, calls } = recordingWriter();
    const relay = new LiveCallRelay(writer, "run-1", 1, 200);
    const ledger = relay.ledger(new MemoryCallLedger());
    const outcome = await ledger.call("implement/attempt-2/model", { actor: "assistant", policy: "model", payload: {} }, async () => {
      relay.onToken(token("class ", 2));
      await vi.advanceTimersByTimeAsync(200);
      relay.onToken(token("LRU", 2));
      return { content: "class LRU" };
    });
    expect(outcome.ok).toBe(true);
    // The pending write of "class LRU" is dropped: the result supersedes the preview.
    expect(calls).toEqual(['write run-1@1 implement/2 "class "', "clear run-1@1"]);
  });

  it("starts over for a new attempt and survives a failing write", async () => {
    const { writer, calls } = recordingWriter(true);
    const relay = new LiveCallRelay(writer, "run-1", 1, 200);
    relay.onToken(token("first", 1));
    relay.onToken(token("second", 2));
    await vi.advanceTimersByTimeAsync(200);
    await expect(relay.settle()).resolves.toBeUndefined();
    expect(calls).toEqual(['write run-1@1 implement/2 "second"', "clear run-1@1"]);
  });
});
