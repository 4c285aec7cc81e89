/**
 * The email a reviewer gets for a new escalation: what they need to triage it without opening the
 * dashboard (workflow, step, guard, the fatal feedback, the offending lines, the deadline) and
 * three links: the review page, and one-click approve and reject, each of which opens a
 * confirmation page (nothing is decided by following a link).
 */
export interface EscalationEmailFacts {
  readonly workflow: string;
  readonly runId: string;
  readonly stepName: string;
  readonly guardId: string;
  readonly fatal: boolean;
  readonly feedback: string;
  /** The artifact's lines around the offending one, numbered from 1, when the feedback names one. */
  readonly offendingLines: readonly { readonly number: number; readonly text: string; readonly offending: boolean }[];
  readonly expiresAt: Date | null;
  /** Set on a reminder: how many hours before the deadline it was due. */
  readonly reminderHours?: number;
  /** Set on a hand-off: the group (the recipient's) the escalation was handed to. */
  readonly handedOffTo?: string;
  readonly reviewUrl: string;
  readonly approveUrl: string;
  readonly rejectUrl: string;
}

export interface EmailMessage {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** Feedback and lines are model output: cut to what a mail reader shows, never trusted as markup. */
const MAX_FEEDBACK_CHARS = 2_000;
const MAX_LINE_CHARS = 200;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** Subjects are one line: a newline in a step name must not start a header. */
const oneLine = (text: string) => text.replace(/[\r\n\t]+/g, " ").trim();

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);
}

export function escalationEmail(facts: EscalationEmailFacts): EmailMessage {
  const kind = facts.fatal ? "Fatal escalation" : "Escalation";
  const reminder = facts.reminderHours !== undefined ? `Reminder, ${facts.reminderHours} h left: ` : facts.handedOffTo !== undefined ? `Handed to ${facts.handedOffTo}: ` : "";
  const subject = cut(oneLine(`[Dualstate] ${reminder}${kind}: ${facts.workflow} / ${facts.stepName} (${facts.guardId})`), 200);
  const feedback = cut(facts.feedback, MAX_FEEDBACK_CHARS);
  const deadline = facts.expiresAt ? `Decide before ${facts.expiresAt.toISOString().replace("T", " ").slice(0, 16)} UTC; after that the run stops waiting.` : "No deadline.";
  const lines = facts.offendingLines.map((line) => `${line.offending ? ">" : " "} ${String(line.number).padStart(4)} | ${cut(line.text, MAX_LINE_CHARS)}`);

  const reminderLine =
    facts.reminderHours !== undefined
      ? [`Reminder: this escalation still waits for a decision, and its deadline is about ${facts.reminderHours} h away.`, ""]
      : facts.handedOffTo !== undefined
        ? [`Handed to your group ${facts.handedOffTo}: nobody claimed or decided this escalation in time, so it is offered to you now.`, ""]
        : [];
  const text = [
    ...reminderLine,
    `${kind} in workflow "${facts.workflow}", run ${facts.runId}.`,
    `Step: ${facts.stepName}`,
    `Guard: ${facts.guardId}${facts.fatal ? " (fatal: the run stopped at once)" : ""}`,
    "",
    "Feedback:",
    feedback,
    ...(lines.length > 0 ? ["", "Offending lines:", ...lines] : []),
    "",
    deadline,
    "",
    `Review: ${facts.reviewUrl}`,
    `Approve: ${facts.approveUrl}`,
    `Reject: ${facts.rejectUrl}`,
    "",
    "The approve and reject links open a confirmation page; nothing is decided until you confirm there. Each link works once, for you only.",
  ].join("\n");

  const html = `<!doctype html><html><body style="font-family:sans-serif">
${reminderLine.length > 0 ? `<p><strong>${escapeHtml(reminderLine[0]!)}</strong></p>` : ""}
<p><strong>${escapeHtml(kind)}</strong> in workflow <strong>${escapeHtml(facts.workflow)}</strong>, run <code>${escapeHtml(facts.runId)}</code>.</p>
<p>Step: <strong>${escapeHtml(facts.stepName)}</strong><br>Guard: <strong>${escapeHtml(facts.guardId)}</strong>${facts.fatal ? " (fatal: the run stopped at once)" : ""}</p>
<p>Feedback:</p><pre style="white-space:pre-wrap">${escapeHtml(feedback)}</pre>
${lines.length > 0 ? `<p>Offending lines:</p><pre>${lines.map(escapeHtml).join("\n")}</pre>` : ""}
<p>${escapeHtml(deadline)}</p>
<p><a href="${escapeHtml(facts.reviewUrl)}">Review</a> · <a href="${escapeHtml(facts.approveUrl)}">Approve</a> · <a href="${escapeHtml(facts.rejectUrl)}">Reject</a></p>
<p style="color:#666">The approve and reject links open a confirmation page; nothing is decided until you confirm there. Each link works once, for you only.</p>
</body></html>`;
  return { subject, text, html };
}

/** The offending line and two lines either side, for the email. */
export function linesAround(content: string, line: number | null, context = 2): EscalationEmailFacts["offendingLines"] {
  if (line === null) return [];
  const all = content.split("\n");
  const first = Math.max(1, line - context);
  const last = Math.min(all.length, line + context);
  const around = [];
  for (let number = first; number <= last; number++) around.push({ number, text: all[number - 1] ?? "", offending: number === line });
  return around;
}
