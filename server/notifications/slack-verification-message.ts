import { slackEscape, type SlackMessage } from "./slack-message";

/**
 * The direct message carrying a verification code. It names the Dualstate account that asked, so
 * the owner of the member id can tell when someone else entered it, and tells them not to pass
 * the code on (whoever types it links this Slack account to theirs).
 */
export function slackVerificationMessage(facts: { code: string; accountEmail: string; expiresAt: Date; baseUrl?: string }): SlackMessage {
  const until = facts.expiresAt.toISOString().replace("T", " ").slice(0, 16);
  const account = slackEscape(facts.accountEmail);
  const where = facts.baseUrl ? `<${facts.baseUrl.replace(/\/+$/, "")}/account|Account page>` : "Account page";
  const text = `Your Dualstate verification code: ${facts.code}`;
  const body =
    `*${facts.code}* links this Slack account to the Dualstate account *${account}*: enter it on your Dualstate ${where} while signed in as ${account}, before ${until} UTC. ` +
    `Then Dualstate's Slack buttons act as that account, and its escalation messages come here.\n` +
    `If you did not ask for this, someone else entered your Slack member id: do not share the code, and ignore this message.`;
  return { text, blocks: [{ type: "section", text: { type: "mrkdwn", text: body } }] };
}
