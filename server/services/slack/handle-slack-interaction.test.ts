import { describe, expect, it, vi } from "vitest";
import { SLACK_ACTION_IDS } from "@/server/notifications/slack-actions";
import { signSlackRequest, SlackReplayGuard } from "@/server/notifications/slack-signature";
import type { Db } from "@/server/persistence/db";
import { decideEscalation } from "../escalations/decide-escalation";
import { handleSlackInteraction, type SlackInteractionConfig } from "./handle-slack-interaction";

// A unit test of the handler's answer to each outcome a decision can have; the database paths are
// tested against real databases in slack-notifications.int.test.ts.
vi.mock("../escalations/decide-escalation", () => ({ decideEscalation: vi.fn() }));

const SECRET = "unit-signing-secret-0123456789";
const HASH = "a".repeat(64);
const NOW = new Date("2026-11-26T12:00:00.000Z");
const db = {
  user: { findUnique: async () => ({ id: "u-ada", email: "ada@example.test", role: "reviewer", disabled: false }) },
  escalation: { findUnique: async () => ({ id: "esc-1", runId: "run-1", status: "pending", decision: null, decidedBy: null, decidedAt: null, expiresAt: null, reviewGroup: null, artifact: { contentHash: HASH } }) },
} as unknown as Db;

function clickBody() {
  const payload = { type: "block_actions", user: { id: "U0ADA" }, actions: [{ action_id: SLACK_ACTION_IDS.reject, value: `esc-1:${HASH}` }], response_url: "https://hooks.slack.com/actions/T/1/x" };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

async function click() {
  const respond = vi.fn(async () => {});
  const config: SlackInteractionConfig = { signingSecret: SECRET, authSecret: "s".repeat(64), baseUrl: "https://d.example", client: { respond }, replayGuard: new SlackReplayGuard(), responseUrlAllowed: () => true };
  const body = clickBody();
  const timestamp = String(NOW.getTime() / 1000);
  const result = await handleSlackInteraction(db, config, { body, timestamp, signature: signSlackRequest(SECRET, timestamp, body) }, NOW);
  // The handler leaves the answer to be posted after Slack's 200.
  expect(respond).not.toHaveBeenCalled();
  await result.answer?.();
  return { result, reply: respond.mock.calls[0] as unknown as [string, Record<string, unknown>] | undefined };
}

describe("the answer to a Reject click", () => {
  it("replaces the message when the rejection decided", async () => {
    vi.mocked(decideEscalation).mockResolvedValueOnce({ escalationId: "esc-1", runId: "run-1", status: "rejected", decision: "reject", decidedBy: "ada@example.test", decidedAt: NOW, comment: null, quorum: null });
    const { result, reply } = await click();
    expect(result.status).toBe(200);
    expect(reply?.[1]).toMatchObject({ replace_original: true, text: "Rejected by ada@example.test from Slack at 2026-11-26 12:00 UTC." });
  });

  it("keeps the message up, and says so to the clicker alone, when the rejection was one vote of a quorum", async () => {
    // Under a quorum policy the decision service answers a vote that did not decide with "pending".
    vi.mocked(decideEscalation).mockResolvedValueOnce({ escalationId: "esc-1", runId: "run-1", status: "pending", decision: "reject", decidedBy: "ada@example.test", decidedAt: NOW, comment: null } as unknown as Awaited<ReturnType<typeof decideEscalation>>);
    const { reply } = await click();
    expect(reply?.[1]).toMatchObject({ response_type: "ephemeral", replace_original: false, text: expect.stringContaining("recorded as a vote") });
  });

  it("tells the clicker a refusal's reason, and fails loudly on anything else", async () => {
    const { ServiceError } = await import("../errors");
    vi.mocked(decideEscalation).mockRejectedValueOnce(new ServiceError("CONFLICT", "Escalation esc-1: you already voted."));
    expect((await click()).reply?.[1]).toMatchObject({ response_type: "ephemeral", text: "Escalation esc-1: you already voted." });
    vi.mocked(decideEscalation).mockRejectedValueOnce(new Error("database down"));
    await expect(click()).rejects.toThrow("database down");
  });
});
