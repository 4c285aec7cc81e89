import { describe, expect, it } from "vitest";
import { signedDecidedQuery, verifiedDecidedQuery } from "./decided-page-query";

const SECRET = "s".repeat(64);
const asQuery = (text: string) => Object.fromEntries(new URLSearchParams(text));

describe("the outcome page's signed query", () => {
  it("reads back what the decision route signed", () => {
    const signed = signedDecidedQuery(SECRET, { status: "approved", escalation: "esc-1", run: "run-1" });
    expect(verifiedDecidedQuery(SECRET, asQuery(signed))).toEqual({ status: "approved", escalation: "esc-1", run: "run-1", votes: "", reason: "" });
  });

  it("reads nothing from an address it did not sign: crafted, changed, or signed under another secret", () => {
    expect(verifiedDecidedQuery(SECRET, { status: "approved", run: "run-1" })).toBeNull();
    const signed = asQuery(signedDecidedQuery(SECRET, { reason: "This link was already used." }));
    expect(verifiedDecidedQuery(SECRET, { ...signed, reason: "Sign in again at evil.example" })).toBeNull();
    expect(verifiedDecidedQuery(SECRET, { ...signed, status: "approved" })).toBeNull();
    expect(verifiedDecidedQuery("t".repeat(64), signed)).toBeNull();
    expect(verifiedDecidedQuery(SECRET, { ...signed, sig: ["a", "b"] })).toBeNull();
  });
});
