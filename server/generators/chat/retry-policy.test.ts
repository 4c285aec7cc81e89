import { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { describe, expect, it } from "vitest";
import { classify, MalformedResponseError, parseRetryAfter, retryDelay } from "./retry-policy";

const headers = (entries: Record<string, string>) => new Headers(entries);
const backoff = { baseMs: 500, maxMs: 8000, maxRetryAfterMs: 60_000 };

describe("retry policy", () => {
  it("reads Retry-After in milliseconds, seconds and as an HTTP date", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter(headers({ "retry-after-ms": "1500", "retry-after": "9" }), now)).toBe(1500);
    expect(parseRetryAfter(headers({ "retry-after": "2" }), now)).toBe(2000);
    expect(parseRetryAfter(headers({ "retry-after": "0.5" }), now)).toBe(500);
    expect(parseRetryAfter(headers({ "retry-after": "Wed, 01 Jan 2025 00:00:30 GMT" }), now)).toBe(30_000);
    expect(parseRetryAfter(headers({ "retry-after": "Tue, 31 Dec 2024 23:00:00 GMT" }), now)).toBe(0);
    expect(parseRetryAfter(headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it("backs off exponentially with equal jitter, capped at maxMs", () => {
    const failure = classify(new APIConnectionError({ message: "down" }));
    const at = (random: number) => [1, 2, 3, 4, 5, 6].map((retry) => retryDelay(retry, failure, { ...backoff, random: () => random }));
    expect(at(1)).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect(at(0)).toEqual([250, 500, 1000, 2000, 4000, 4000]);
  });

  it("prefers the endpoint's Retry-After, capped", () => {
    const limited = classify(new APIError(429, { message: "slow down" }, undefined, headers({ "retry-after": "20" })));
    expect(retryDelay(1, limited, backoff)).toBe(20_000);
    expect(retryDelay(1, limited, { ...backoff, maxRetryAfterMs: 5000 })).toBe(5000);
  });

  it("classifies statuses and transport failures", () => {
    const status = (code: number) => classify(APIError.generate(code, { error: { message: "x" } }, undefined, headers({})));
    expect(status(429)).toMatchObject({ code: "RATE_LIMITED", retryable: true });
    expect(status(500)).toMatchObject({ code: "SERVER_ERROR", retryable: true, status: 500 });
    expect(status(503)).toMatchObject({ code: "SERVER_ERROR", retryable: true });
    expect(status(408)).toMatchObject({ code: "TIMEOUT", retryable: true });
    expect(status(401)).toMatchObject({ code: "AUTH", retryable: false });
    expect(status(403)).toMatchObject({ code: "AUTH", retryable: false });
    for (const code of [400, 404, 413, 422]) expect(status(code)).toMatchObject({ code: "BAD_REQUEST", retryable: false });
    expect(classify(new APIConnectionTimeoutError())).toMatchObject({ code: "TIMEOUT", retryable: true });
    expect(classify(new MalformedResponseError("not JSON"))).toMatchObject({ code: "MALFORMED_RESPONSE", retryable: true });
    expect(classify(new APIError(undefined, { message: "overloaded" }, undefined, undefined))).toMatchObject({ code: "SERVER_ERROR", retryable: true });
    expect(classify(new TypeError("terminated"))).toMatchObject({ code: "CONNECTION", retryable: true });
  });
});
