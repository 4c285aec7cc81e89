import { describe, expect, it } from "vitest";
import { rememberSuccess } from "./remember-success";

describe("rememberSuccess", () => {
  it("looks a key up once while it succeeds, and again after a failure", async () => {
    const calls: string[] = [];
    let healthy = false;
    const lookup = rememberSuccess(async (key) => {
      calls.push(key);
      return { ok: healthy };
    });
    expect((await Promise.all([lookup("a"), lookup("a")])).map((result) => result.ok)).toEqual([false, false]);
    expect(calls).toEqual(["a"]); // shared while pending
    healthy = true;
    expect((await lookup("a")).ok).toBe(true); // the failure was forgotten
    await lookup("a");
    await lookup("b");
    expect(calls).toEqual(["a", "a", "b"]);
  });
});
