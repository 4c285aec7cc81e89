import { encodeSlackActionValue, SLACK_ACTION_IDS, type SlackActionTarget } from "./slack-actions";
import type { EscalationEmailFacts } from "./escalation-email";

/** What a Slack escalation message says: the email's facts, without its per-recipient links. */
export type SlackEscalationFacts = Omit<EscalationEmailFacts, "approveUrl" | "rejectUrl"> & {
  /** The group the escalation is offered to (null: every reviewer). */
  readonly group: string | null;
  /** Set on a hand-off: the escalation was offered to another group before, and nobody took it. */
  readonly handedOff?: boolean;
};

/**
 * How a message lets people act. A Slack app's message has interactive buttons (Slack signs the
 * click, and the clicker is mapped to a reviewer). An incoming webhook's message is posted to a
 * channel, where a link cannot know who clicks it: it links to the review page, where the
 * reviewer signs in and decides.
 */
export type SlackButtons = { readonly kind: "interactive"; readonly target: SlackActionTarget } | { readonly kind: "links" };

export interface SlackMessage {
  /** The notification's plain text (shown in alerts and by clients without blocks). */
  readonly text: string;
  readonly blocks: readonly Record<string, unknown>[];
}

/** Slack's limits: a section's text 3000 characters, a header 150; model output is cut well inside. */
const MAX_FEEDBACK_CHARS = 1_500;
const MAX_LINE_CHARS = 200;
const MAX_HEADER_CHARS = 150;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const oneLine = (text: string) => text.replace(/[\r\n\t]+/g, " ").trim();

/**
 * Text for Slack's mrkdwn: `&`, `<` and `>` escaped, so model output cannot make a link, a
 * mention (<!channel>) or a user ping.
 */
export function slackEscape(text: string): string {
  return text.replace(/[&<>]/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[char]!);
}

/** A code block whose content cannot close it early. */
function codeBlock(text: string): string {
  return "```" + slackEscape(text).replace(/`{3,}/g, (run) => run.split("").join("\u200b")) + "```";
}

export function slackEscalationMessage(facts: SlackEscalationFacts, buttons: SlackButtons): SlackMessage {
  const kind = facts.fatal ? "Fatal escalation" : "Escalation";
  const prefix = facts.reminderHours !== undefined ? `Reminder, ${facts.reminderHours} h left: ` : facts.handedOff ? "Handed off: " : "";
  const title = oneLine(`${prefix}${kind}: ${facts.workflow} / ${facts.stepName} (${facts.guardId})`);
  const offeredTo = facts.group === null ? "every reviewer" : `group ${facts.group}`;
  const handoff = facts.handedOff ? " (handed off: nobody took it where it was offered first)" : "";
  const deadline = facts.expiresAt ? `Decide before ${facts.expiresAt.toISOString().replace("T", " ").slice(0, 16)} UTC; after that the run stops waiting.` : "No deadline.";
  const lines = facts.offendingLines.map((line) => `${line.offending ? ">" : " "} ${String(line.number).padStart(4)} | ${cut(line.text, MAX_LINE_CHARS)}`);

  const blocks: Record<string, unknown>[] = [
    { type: "header", text: { type: "plain_text", text: cut(title, MAX_HEADER_CHARS), emoji: false } },
    {
      type: "section",
      fields: [
        { type: "mrkdwn", text: `*Workflow*\n${slackEscape(cut(oneLine(facts.workflow), 200))}` },
        { type: "mrkdwn", text: `*Run*\n\`${slackEscape(cut(facts.runId, 100))}\`` },
        { type: "mrkdwn", text: `*Step*\n${slackEscape(cut(oneLine(facts.stepName), 200))}` },
        { type: "mrkdwn", text: `*Guard*\n${slackEscape(cut(oneLine(facts.guardId), 200))}${facts.fatal ? " (fatal: the run stopped at once)" : ""}` },
      ],
    },
    { type: "section", text: { type: "mrkdwn", text: `*Feedback*\n${codeBlock(cut(facts.feedback, MAX_FEEDBACK_CHARS))}` } },
  ];
  if (lines.length > 0) blocks.push({ type: "section", text: { type: "mrkdwn", text: `*Offending lines*\n${codeBlock(lines.join("\n"))}` } });
  blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: slackEscape(`${deadline} Offered to ${offeredTo}${handoff}.`) }] });

  const review = { type: "button", action_id: SLACK_ACTION_IDS.review, text: { type: "plain_text", text: buttons.kind === "links" ? "Review and decide" : "Review" }, url: facts.reviewUrl };
  if (buttons.kind === "interactive") {
    const value = encodeSlackActionValue(buttons.target);
    blocks.push({
      type: "actions",
      elements: [
        // Approving fatal code needs the code seen first: the click answers with a confirmation page that shows it.
        { type: "button", action_id: SLACK_ACTION_IDS.approve, style: "primary", text: { type: "plain_text", text: "Approve…" }, value },
        {
          type: "button", action_id: SLACK_ACTION_IDS.reject, style: "danger", text: { type: "plain_text", text: "Reject" }, value,
          confirm: { title: { type: "plain_text", text: "Reject this attempt?" }, text: { type: "plain_text", text: "The run goes on as a rejection decides (it fails, or retries with feedback)." }, confirm: { type: "plain_text", text: "Reject" }, deny: { type: "plain_text", text: "Cancel" } },
        },
        review,
      ],
    });
  } else {
    blocks.push({ type: "actions", elements: [review] });
  }
  return { text: slackEscape(cut(title, MAX_HEADER_CHARS)), blocks };
}

/** The short answer to a button click, shown only to the person who clicked (or replacing the message). */
export function slackReply(text: string, options: { replaceOriginal?: boolean } = {}): Record<string, unknown> {
  return options.replaceOriginal
    ? { replace_original: true, text: slackEscape(text), blocks: [{ type: "section", text: { type: "mrkdwn", text: slackEscape(text) } }] }
    : { response_type: "ephemeral", replace_original: false, text: slackEscape(text) };
}

/** The answer to an Approve click: the signed confirmation page, which shows the code before anything is decided. */
export function slackApproveReply(confirmationUrl: string, expiresAt: Date): Record<string, unknown> {
  const until = expiresAt.toISOString().replace("T", " ").slice(0, 16);
  const text = `Approving needs the code seen first. <${confirmationUrl}|Open the confirmation page>: it shows the code, and nothing is approved until you confirm there. The link is yours only, works once, until ${until} UTC.`;
  return { response_type: "ephemeral", replace_original: false, text };
}
