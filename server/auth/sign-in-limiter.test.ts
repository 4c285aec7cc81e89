import { describe, expect, it } from "vitest";
import { SignInLimiter } from "./sign-in-limiter";

describe("SignInLimiter", () => {
  it("limits failures per email and attempts per address within the window, then forgets them", () => {
    const limiter = new SignInLimiter({ failuresPerEmail: 2, attemptsPerAddress: 3, windowMs: 1_000 });
    for (let i = 0; i < 2; i++) {
      expect(limiter.attempt("a@example.com", "10.0.0.1", 0).allowed).toBe(true);
      limiter.failed("a@example.com", 0);
    }
    expect(limiter.attempt("a@example.com", "10.0.0.2", 10)).toMatchObject({ allowed: false, reason: "2 failed sign-ins for this email", retryAfterSeconds: 1 });
    expect(limiter.attempt("b@example.com", "10.0.0.1", 10).allowed).toBe(true);
    expect(limiter.attempt("c@example.com", "10.0.0.1", 10)).toMatchObject({ allowed: false, reason: "3 sign-in attempts from this address" });
    expect(limiter.attempt("a@example.com", "10.0.0.1", 1_001).allowed).toBe(true);
  });

  it("remembers a bounded number of emails and addresses: a flood of new ones cannot grow it without end", () => {
    const limiter = new SignInLimiter({ failuresPerEmail: 1, attemptsPerAddress: 1_000_000, windowMs: 60_000 });
    limiter.failed("first@example.com", 0);
    for (let i = 0; i < 60_000; i++) limiter.failed(`flood${i}@example.com`, 1);
    // The oldest entry was forgotten to make room.
    expect(limiter.attempt("first@example.com", "10.0.0.1", 2).allowed).toBe(true);
    expect(limiter.attempt("flood59999@example.com", "10.0.0.1", 2).allowed).toBe(false);
  });
});
