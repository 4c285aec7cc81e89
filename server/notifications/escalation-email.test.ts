import { describe, expect, it } from "vitest";
import { escalationEmail, linesAround, type EscalationEmailFacts } from "./escalation-email";

const facts: EscalationEmailFacts = {
  workflow: "tdd",
  runId: "run-1",
  stepName: "implement",
  guardId: "security",
  fatal: true,
  feedback: "line 3: os.system is not allowed",
  offendingLines: linesAround("import os\n\nos.system('rm -rf /')\nprint(1)", 3),
  expiresAt: new Date("2026-11-29T10:00:00.000Z"),
  reviewUrl: "https://dualstate.example.com/escalations/esc-1",
  approveUrl: "https://dualstate.example.com/decide/a.b",
  rejectUrl: "https://dualstate.example.com/decide/c.d",
};

describe("escalation email", () => {
  it("carries what a reviewer needs to triage", () => {
    const email = escalationEmail(facts);
    expect(email.subject).toBe("[Dualstate] Fatal escalation: tdd / implement (security)");
    expect(email.text).toContain("Guard: security (fatal: the run stopped at once)");
    expect(email.text).toContain("line 3: os.system is not allowed");
    expect(email.text).toContain(">    3 | os.system('rm -rf /')");
    expect(email.text).toContain("     1 | import os");
    expect(email.text).toContain("Decide before 2026-11-29 10:00 UTC");
    for (const url of [facts.reviewUrl, facts.approveUrl, facts.rejectUrl]) {
      expect(email.text).toContain(url);
      expect(email.html).toContain(`href="${url}"`);
    }
  });

  it("escapes model output in the HTML part", () => {
    const email = escalationEmail({ ...facts, feedback: `<script>alert(1)</script><a href="x">`, offendingLines: [{ number: 1, text: "<img src=x onerror=alert(1)>", offending: true }] });
    expect(email.html).not.toContain("<script>");
    expect(email.html).not.toContain("<img");
    expect(email.html).toContain("&lt;script&gt;");
  });

  it("keeps the subject on one line whatever the names hold", () => {
    const email = escalationEmail({ ...facts, stepName: "a\r\nBcc: victim@example.com" });
    expect(email.subject).not.toMatch(/[\r\n]/);
  });

  it("bounds the feedback and each line", () => {
    const email = escalationEmail({ ...facts, feedback: "x".repeat(50_000), offendingLines: [{ number: 1, text: "y".repeat(10_000), offending: true }] });
    expect(email.text.length).toBeLessThan(4_000);
  });

  it("says when there is no deadline and omits lines when the feedback names none", () => {
    const email = escalationEmail({ ...facts, expiresAt: null, offendingLines: [] });
    expect(email.text).toContain("No deadline.");
    expect(email.text).not.toContain("Offending lines:");
  });

  it("takes the lines around the offending one, clipped to the artifact", () => {
    expect(linesAround("a\nb\nc", 1).map((line) => line.number)).toEqual([1, 2, 3]);
    expect(linesAround("a\nb\nc\nd\ne\nf", 6).map((line) => [line.number, line.offending])).toEqual([[4, false], [5, false], [6, true]]);
    expect(linesAround("a", null)).toEqual([]);
  });
});
