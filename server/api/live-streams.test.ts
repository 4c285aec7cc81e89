import { describe, expect, it } from "vitest";
import { liveStream, StreamSlots } from "./live-streams";
import type { Actor } from "./trpc";

const ADA: Actor = { id: "u-ada", email: "ada@example.com", role: "viewer", via: "session" };
const BOB: Actor = { id: "u-bob", email: "bob@example.com", role: "viewer", via: "token" };

/** A source that yields a number each time `push` is called, and records whether it was stopped. */
function controllableSource() {
  const state = { stopped: false, pending: [] as number[], wake: () => {} };
  const push = (value: number) => {
    state.pending.push(value);
    state.wake();
  };
  async function* open(signal: AbortSignal): AsyncGenerator<number> {
    signal.addEventListener("abort", () => {
      state.stopped = true;
      state.wake();
    });
    while (!signal.aborted) {
      if (state.pending.length > 0) {
        yield state.pending.shift()!;
        continue;
      }
      await new Promise<void>((resolve) => (state.wake = resolve));
    }
  }
  return { state, push, open };
}

const waitFor = async (condition: () => boolean, timeoutMs = 10_000) => {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe("live streams", () => {
  it("50 concurrent streams of one user: 20 open, 30 refused with a clear error; another user is unaffected; closing frees a slot", async () => {
    const slots = new StreamSlots(20);
    const controllers = Array.from({ length: 50 }, () => new AbortController());
    const streams = controllers.map((controller) => liveStream({ actor: ADA }, controller.signal, controllableSource().open, { slots }));
    const outcomes = await Promise.all(streams.map((stream) => Promise.race([stream.next().then(() => "open", (error: { code?: string; message: string }) => `${error.code}: ${error.message}`), new Promise((resolve) => setTimeout(() => resolve("open"), 200))])));
    expect(outcomes.filter((outcome) => outcome === "open")).toHaveLength(20);
    const refused = outcomes.filter((outcome) => outcome !== "open");
    expect(refused).toHaveLength(30);
    expect(refused[0]).toBe("TOO_MANY_REQUESTS: ada@example.com already has 20 live updates open (each open run page uses two); close some pages or tabs and reload");
    expect(slots.openFor(ADA.id)).toBe(20);

    const otherController = new AbortController();
    const other = liveStream({ actor: BOB }, otherController.signal, controllableSource().open, { slots });
    const otherFirst = other.next();
    await waitFor(() => slots.openFor(BOB.id) === 1);

    controllers[0]!.abort();
    await streams[0]!.return(undefined);
    expect(slots.openFor(ADA.id)).toBe(19);
    for (const [index, controller] of controllers.entries()) {
      controller.abort();
      await streams[index]!.return(undefined);
    }
    otherController.abort();
    expect(await otherFirst).toEqual({ done: true, value: undefined });
    expect(slots.openFor(ADA.id)).toBe(0);
    expect(slots.openFor(BOB.id)).toBe(0);
  });

  it("a session revoked while the stream is idle: the periodic re-check ends it with UNAUTHORIZED and stops the source", async () => {
    let valid = true;
    const source = controllableSource();
    const stream = liveStream({ actor: ADA, reauthorize: async () => (valid ? ADA : null) }, undefined, source.open, { slots: new StreamSlots(), recheckIntervalMs: 50 });
    source.push(1);
    expect(await stream.next()).toEqual({ done: false, value: 1 });
    const waiting = stream.next();
    valid = false;
    await expect(waiting).rejects.toMatchObject({ code: "UNAUTHORIZED", message: "Your session has ended (expired, signed out or disabled); sign in again" });
    expect(source.state.stopped).toBe(true);
  });

  it("a revoked API token: the next event is not delivered; the stream ends naming the token", async () => {
    let valid = true;
    const source = controllableSource();
    const slots = new StreamSlots();
    const stream = liveStream({ actor: BOB, reauthorize: async () => (valid ? BOB : null) }, undefined, source.open, { slots, recheckIntervalMs: 60_000, minRecheckMs: 0 });
    source.push(1);
    expect(await stream.next()).toEqual({ done: false, value: 1 });
    valid = false;
    source.push(2);
    await expect(stream.next()).rejects.toMatchObject({ code: "UNAUTHORIZED", message: expect.stringContaining("API token") });
    expect(slots.openFor(BOB.id)).toBe(0);
  });

  it("credentials that now belong to someone else end the stream too; a failing check counts as ended", async () => {
    const source = controllableSource();
    const stream = liveStream({ actor: ADA, reauthorize: async () => BOB }, undefined, source.open, { slots: new StreamSlots(), minRecheckMs: 0 });
    source.push(1);
    await expect(stream.next()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const failing = controllableSource();
    const broken = liveStream({ actor: ADA, reauthorize: () => Promise.reject(new Error("database down")) }, undefined, failing.open, { slots: new StreamSlots(), minRecheckMs: 0 });
    failing.push(1);
    await expect(broken.next()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("valid credentials: events flow, checked at most once per minRecheckMs; the client leaving stops the source and frees the slot", async () => {
    let checks = 0;
    const source = controllableSource();
    const slots = new StreamSlots();
    const controller = new AbortController();
    const stream = liveStream({ actor: ADA, reauthorize: async () => (checks++, ADA) }, controller.signal, source.open, { slots, minRecheckMs: 60_000 });
    for (let i = 0; i < 5; i++) source.push(i);
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) seen.push((await stream.next()).value as number);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(checks).toBe(0);
    const pending = stream.next();
    controller.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(source.state.stopped).toBe(true);
    expect(slots.openFor(ADA.id)).toBe(0);
  });
});
