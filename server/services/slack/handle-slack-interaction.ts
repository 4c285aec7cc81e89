import { z } from "zod";
import type { Role } from "@/server/auth/permissions";
import { parseSlackActionValue, slackDecisionOf } from "@/server/notifications/slack-actions";
import { slackApproveReply, slackReply } from "@/server/notifications/slack-message";
import { verifySlackSignature, type SlackReplayGuard } from "@/server/notifications/slack-signature";
import type { Db } from "@/server/persistence/db";
import { mintDecisionLink } from "../decision-links/mint-decision-link";
import { isServiceError } from "../errors";
import { canDecide } from "../escalations/decision-kinds";
import { decideEscalation, type DecisionOutcome } from "../escalations/decide-escalation";
import { describeClosedEscalation } from "../escalations/describe-closed";
import { groupRefusal } from "../escalations/group-rule";
import type { SlackClient } from "./slack-client";

export interface SlackInteractionConfig {
  readonly signingSecret: string;
  /** The deployment's auth secret: an Approve click answers with a signed decision link. */
  readonly authSecret: string;
  readonly baseUrl: string;
  readonly client: Pick<SlackClient, "respond">;
  readonly replayGuard: SlackReplayGuard;
  /** Whether a response_url may be posted to (Slack's own hosts, or the configured API's). */
  readonly responseUrlAllowed: (url: URL) => boolean;
}

export interface SlackInteractionRequest {
  readonly body: string;
  readonly timestamp: string | null;
  readonly signature: string | null;
}

/** The HTTP answer to Slack, and what was done (for the route and the tests). */
export interface SlackInteractionResult {
  readonly status: number;
  readonly body: string;
  readonly outcome?: DecisionOutcome;
  readonly reply?: string;
  /**
   * Posts the answer to the click's response_url: to be run after Slack has its 200 (Slack wants
   * that within three seconds; a slow response_url must not make a decision that stands look
   * failed). Resolves to why Slack did not take the answer, if it did not.
   */
  readonly answer?: () => Promise<string | undefined>;
}

/** A click's payload: only what is used, each part bounded. */
const payloadSchema = z.object({
  type: z.string().max(64),
  user: z.object({ id: z.string().min(1).max(64) }),
  actions: z.array(z.object({ action_id: z.string().max(255), value: z.string().max(2_000).optional() })).max(25).default([]),
  response_url: z.string().max(2_000).optional(),
});

/**
 * Acts on a click on a Slack message's button. Only a request Slack signed with the app's signing
 * secret, within five minutes and seen once, is read. The Slack member must be a Dualstate
 * reviewer who proved that member id is theirs (User.slackUserId; a claim not yet verified counts
 * for nothing) and who may decide this escalation (their role, and its group rule); anyone else
 * is told why, only to them. Approve never approves: approving fatal code needs the
 * code seen, so the answer is that reviewer's own signed confirmation page. Reject decides at once
 * (Slack asked to confirm first), on the artifact the message showed.
 */
export async function handleSlackInteraction(db: Db, config: SlackInteractionConfig, request: SlackInteractionRequest, now = new Date()): Promise<SlackInteractionResult> {
  const check = verifySlackSignature({ signingSecret: config.signingSecret, timestamp: request.timestamp, signature: request.signature, body: request.body, now });
  if (!check.ok) return { status: 401, body: `Refused: ${check.reason}.` };
  if (!config.replayGuard.firstUse(request.signature!, now)) return { status: 409, body: "Refused: this signed request was already received." };

  const form = new URLSearchParams(request.body);
  let payload: z.infer<typeof payloadSchema>;
  try {
    const parsed = payloadSchema.safeParse(JSON.parse(form.get("payload") ?? ""));
    if (!parsed.success) return { status: 400, body: `Refused: the payload is not a Slack interaction (${parsed.error.issues[0]?.path.join(".") || "payload"}).` };
    payload = parsed.data;
  } catch {
    return { status: 400, body: "Refused: the payload field is not JSON." };
  }
  // Other interactions (and the review button, a plain link) need no answer.
  const action = payload.type === "block_actions" ? payload.actions.find((candidate) => slackDecisionOf(candidate.action_id) !== null) : undefined;
  if (!action) return { status: 200, body: "" };

  const reply = await decide(db, config, payload.user.id, slackDecisionOf(action.action_id)!, action.value ?? "", now);
  const responseUrl = safeUrl(payload.response_url);
  // What was decided stands even when Slack does not take the answer: Slack still gets its 200.
  const answer =
    responseUrl && config.responseUrlAllowed(responseUrl)
      ? () =>
          config.client.respond(responseUrl.toString(), reply.message).then(
            () => undefined,
            (error: unknown) => (error instanceof Error ? error.message : String(error)),
          )
      : undefined;
  return { status: 200, body: "", reply: reply.text, ...(reply.outcome ? { outcome: reply.outcome } : {}), ...(answer ? { answer } : {}) };
}

async function decide(db: Db, config: SlackInteractionConfig, slackUserId: string, decision: "approve" | "reject", value: string, now: Date): Promise<{ text: string; message: Record<string, unknown>; outcome?: DecisionOutcome }> {
  const refuse = (text: string) => ({ text, message: slackReply(text) });
  const target = parseSlackActionValue(value);
  if (!target) return refuse("This button is not one of Dualstate's escalation buttons.");
  const reviewer = await db.user.findUnique({ where: { slackUserId }, select: { id: true, email: true, role: true, disabled: true } });
  if (!reviewer) {
    // Entered on an account page but not proved: the click is not attributed to whoever entered it.
    if (await db.slackVerification.findFirst({ where: { slackUserId }, select: { userId: true } })) {
      return refuse("Your Slack account is not verified in Dualstate, so this click decides nothing: confirm it on your Dualstate Account page (Send code, then type the code Dualstate sends you here in Slack), or decide in the review queue.");
    }
    return refuse("Your Slack account is not linked to a Dualstate reviewer, so you cannot decide from Slack. Add your Slack member id on your Dualstate Account page and confirm it with the code Dualstate sends you, or decide in the review queue.");
  }
  // The account is named by its state only: the clicker may not be the one who linked it.
  if (reviewer.disabled) return refuse("The Dualstate account linked to your Slack member id is disabled, so you cannot decide from Slack. Ask an admin.");
  if (!canDecide(reviewer.role)) return refuse(`The Dualstate account linked to your Slack member id is a ${reviewer.role}, and ${reviewer.role}s cannot decide escalations. Ask an admin.`);
  const escalation = await db.escalation.findUnique({
    where: { id: target.escalationId },
    select: { id: true, runId: true, status: true, decision: true, decidedBy: true, decidedAt: true, expiresAt: true, reviewGroup: true, artifact: { select: { contentHash: true } } },
  });
  if (!escalation?.artifact) return refuse("This escalation no longer exists.");
  if (escalation.status !== "pending") return refuse(describeClosedEscalation(escalation));
  // The queue's own rule: the group's members, and admins, who may step in for any group.
  if (await groupRefusal(db, escalation.reviewGroup, reviewer)) {
    return refuse(`This escalation is offered to the group ${escalation.reviewGroup}, and ${reviewer.email} is not in it (an admin may decide it, or add you to the group).`);
  }
  if (escalation.artifact.contentHash !== target.contentHash) return refuse("The artifact changed since this message was sent. Review the current one from the review queue.");

  if (decision === "approve") {
    const link = await mintDecisionLink(db, { authSecret: config.authSecret, baseUrl: config.baseUrl, escalationId: escalation.id, recipient: reviewer.email, decision: "approve", contentHash: target.contentHash, escalationExpiresAt: escalation.expiresAt, now });
    return { text: "approve: confirmation page sent", message: slackApproveReply(link.url, link.expiresAt) };
  }
  try {
    const outcome = await decideEscalation(db, { id: reviewer.id, email: reviewer.email, role: reviewer.role as Role }, { escalationId: escalation.id, contentHash: target.contentHash, decision: "reject" }, now);
    // Under a quorum policy a rejection may be one vote of several: the message stays up for the others.
    if (outcome.status !== "rejected") {
      const vote = `Your rejection is recorded as a vote; the escalation still waits for the others (see the review page).`;
      return { text: vote, message: slackReply(vote), outcome };
    }
    const text = `Rejected by ${outcome.decidedBy} from Slack at ${outcome.decidedAt.toISOString().replace("T", " ").slice(0, 16)} UTC.`;
    return { text, message: slackReply(text, { replaceOriginal: true }), outcome };
  } catch (error) {
    if (isServiceError(error)) return refuse(error.message);
    throw error;
  }
}

function safeUrl(text: string | undefined): URL | null {
  if (!text) return null;
  try {
    const url = new URL(text);
    return url.protocol === "https:" || url.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}
