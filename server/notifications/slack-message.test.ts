import { describe, expect, it } from "vitest";
import { linesAround } from "./escalation-email";
import { encodeSlackActionValue, parseSlackActionValue, SLACK_ACTION_IDS, slackDecisionOf } from "./slack-actions";
import { slackApproveReply, slackEscalationMessage, slackReply, type SlackEscalationFacts } from "./slack-message";

const HASH = "c".repeat(64);
const facts: SlackEscalationFacts = {
  workflow: "tdd",
  runId: "run-1",
  stepName: "implement",
  guardId: "security",
  fatal: true,
  feedback: "line 3: os.system is not allowed",
  offendingLines: linesAround("import os\n\nos.system('rm -rf /')\nprint(1)", 3),
  expiresAt: new Date("2026-11-29T10:00:00.000Z"),
  reviewUrl: "https://dualstate.example.com/escalations/esc-1",
  group: "security",
};

type Block = { type: string; text?: { text: string }; fields?: { text: string }[]; elements?: Record<string, unknown>[] };
const blocksOf = (message: ReturnType<typeof slackEscalationMessage>) => message.blocks as unknown as Block[];
const allText = (message: ReturnType<typeof slackEscalationMessage>) => JSON.stringify(message.blocks);

describe("Slack escalation message", () => {
  it("carries what a reviewer needs to triage", () => {
    const message = slackEscalationMessage(facts, { kind: "links" });
    expect(message.text).toBe("Fatal escalation: tdd / implement (security)");
    const blocks = blocksOf(message);
    expect(blocks[0]).toEqual({ type: "header", text: { type: "plain_text", text: "Fatal escalation: tdd / implement (security)", emoji: false } });
    expect(blocks[1]!.fields!.map((field) => field.text)).toEqual(["*Workflow*\ntdd", "*Run*\n`run-1`", "*Step*\nimplement", "*Guard*\nsecurity (fatal: the run stopped at once)"]);
    expect(blocks[2]!.text!.text).toBe("*Feedback*\n```line 3: os.system is not allowed```");
    expect(blocks[3]!.text!.text).toBe("*Offending lines*\n```     1 | import os\n     2 | \n&gt;    3 | os.system('rm -rf /')\n     4 | print(1)```");
    expect(allText(message)).toContain("Decide before 2026-11-29 10:00 UTC; after that the run stops waiting. Offered to group security.");
  });

  it("an app's message has Approve (which only opens the code), Reject (confirmed first) and Review; a webhook's only links to the review page", () => {
    const interactive = blocksOf(slackEscalationMessage(facts, { kind: "interactive", target: { escalationId: "esc-1", contentHash: HASH } })).at(-1)!;
    expect(interactive.elements!.map((element) => element.action_id)).toEqual([SLACK_ACTION_IDS.approve, SLACK_ACTION_IDS.reject, SLACK_ACTION_IDS.review]);
    expect(interactive.elements![0]).toMatchObject({ value: `esc-1:${HASH}`, text: { text: "Approve…" } });
    expect(interactive.elements![1]).toMatchObject({ value: `esc-1:${HASH}`, confirm: expect.any(Object), style: "danger" });
    const links = blocksOf(slackEscalationMessage(facts, { kind: "links" })).at(-1)!;
    expect(links.elements).toEqual([{ type: "button", action_id: SLACK_ACTION_IDS.review, text: { type: "plain_text", text: "Review and decide" }, url: facts.reviewUrl }]);
  });

  it("says when it is a reminder or a hand-off, and when nobody's group", () => {
    expect(slackEscalationMessage({ ...facts, reminderHours: 2 }, { kind: "links" }).text).toBe("Reminder, 2 h left: Fatal escalation: tdd / implement (security)");
    const handedOff = slackEscalationMessage({ ...facts, handedOff: true, group: "leads" }, { kind: "links" });
    expect(handedOff.text).toMatch(/^Handed off: /);
    expect(allText(handedOff)).toContain("Offered to group leads (handed off");
    expect(allText(slackEscalationMessage({ ...facts, group: null, expiresAt: null }, { kind: "links" }))).toContain("No deadline. Offered to every reviewer.");
  });

  it("model output cannot mention, link or close its code block", () => {
    const hostile = "<!channel> <https://evil.example|click> & ``` *bold* ```";
    const message = slackEscalationMessage({ ...facts, feedback: hostile, stepName: "<@U123>", offendingLines: [{ number: 1, text: "```<!here>", offending: true }] }, { kind: "links" });
    // The header is plain_text, which Slack never formats; everything in mrkdwn, and the notification text, is escaped.
    const text = JSON.stringify([message.text, ...message.blocks.slice(1)]);
    expect(text).not.toContain("<!channel>");
    expect(text).not.toContain("<!here>");
    expect(text).not.toContain("<https://evil");
    expect(text).not.toContain("<@U123>");
    expect(text).toContain("&lt;!channel&gt;");
    const feedback = blocksOf(message)[2]!.text!.text;
    // Exactly the opening and closing fences: the feedback's own are broken up.
    expect(feedback.match(/```/g)).toHaveLength(2);
  });

  it("stays inside Slack's limits whatever the sizes", () => {
    const huge = "x".repeat(100_000);
    const message = slackEscalationMessage({ ...facts, workflow: huge, stepName: huge, guardId: huge, feedback: huge, offendingLines: Array.from({ length: 5 }, (_, index) => ({ number: index + 1, text: huge, offending: index === 2 })) }, { kind: "interactive", target: { escalationId: "esc-1", contentHash: HASH } });
    const blocks = blocksOf(message);
    expect((blocks[0] as unknown as { text: { text: string } }).text.text.length).toBeLessThanOrEqual(150);
    for (const block of blocks) {
      if (block.text) expect(block.text.text.length).toBeLessThanOrEqual(3000);
      for (const field of block.fields ?? []) expect(field.text.length).toBeLessThanOrEqual(2000);
    }
    expect(message.text.length).toBeLessThanOrEqual(150);
    expect(blocks.length).toBeLessThanOrEqual(50);
  });

  it("answers a click only to the clicker, or replaces the message, escaping what it quotes", () => {
    expect(slackReply("no <!here>")).toEqual({ response_type: "ephemeral", replace_original: false, text: "no &lt;!here&gt;" });
    expect(slackReply("Rejected", { replaceOriginal: true })).toMatchObject({ replace_original: true, text: "Rejected" });
    expect(slackApproveReply("https://d.example/decide/a.b", new Date("2026-11-29T10:00:00Z"))).toMatchObject({ response_type: "ephemeral", text: expect.stringContaining("<https://d.example/decide/a.b|Open the confirmation page>") });
  });
});

describe("Slack button values", () => {
  it("round-trips an escalation and its artifact hash", () => {
    expect(parseSlackActionValue(encodeSlackActionValue({ escalationId: "3675792f-ed13-4c08-aaa1-993d1f96fb64", contentHash: HASH }))).toEqual({ escalationId: "3675792f-ed13-4c08-aaa1-993d1f96fb64", contentHash: HASH });
  });

  it.each(["", "esc-1", `esc-1:${"C".repeat(64)}`, `esc-1:${HASH}x`, `esc 1:${HASH}`, `${"e".repeat(101)}:${HASH}`, `../x:${HASH}`, "x".repeat(10_000)])("refuses %j", (value) => {
    expect(parseSlackActionValue(value)).toBeNull();
  });

  it("knows only its own action ids", () => {
    expect(slackDecisionOf(SLACK_ACTION_IDS.approve)).toBe("approve");
    expect(slackDecisionOf(SLACK_ACTION_IDS.reject)).toBe("reject");
    expect(slackDecisionOf(SLACK_ACTION_IDS.review)).toBeNull();
    expect(slackDecisionOf("approve")).toBeNull();
  });
});
