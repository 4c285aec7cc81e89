import { formatTimeLeft } from "../../../services/escalations/format-time-left";
import type { EscalationListItem, EscalationStatus } from "../../../services/escalations/list-escalations";
import type { BudgetEscalationReview, EscalationReview } from "../../../services/escalations/get-escalation";
import { formatTokens, formatUsd } from "../../../usage/format-usage";

function age(from: Date, now: number): string {
  const minutes = Math.max(0, Math.floor((now - new Date(from).getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  return `${Math.floor(minutes / 1440)} d`;
}

function oneLine(text: string, width: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

/** The queue as a table a terminal shows well: one escalation per line, then the counts. */
export function formatQueue(result: { items: EscalationListItem[]; counts: Record<EscalationStatus, number> }, now = Date.now()): string {
  const counts = Object.entries(result.counts)
    .map(([status, count]) => `${status} ${count}`)
    .join(", ");
  if (result.items.length === 0) return `No escalations match. (${counts})`;
  const rows = result.items.map((item) => [
    item.id,
    item.status,
    `${item.workflow ?? "?"}/${item.stepName}`,
    age(item.createdAt, now),
    item.status === "pending" ? formatTimeLeft(item.expiresAt, now).text : (item.decidedBy ?? "–"),
    item.claimedBy ?? "–",
    oneLine(item.feedback, 60),
  ]);
  const header = ["ID", "STATUS", "WORKFLOW/STEP", "AGE", "DEADLINE/DECIDED BY", "CLAIMED BY", "FEEDBACK"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ");
  return [line(header), ...rows.map(line), "", counts].join("\n");
}

/** One escalation: what a reviewer needs to decide, with the artifact's lines numbered. */
export function formatReview(review: EscalationReview, now = Date.now()): string {
  if (review.kind === "budget") return formatBudgetReview(review, now);
  const { escalation, artifact } = review;
  const lines = [
    `Escalation ${escalation.id}: ${escalation.status}${escalation.decidedBy ? ` (${escalation.decision} by ${escalation.decidedBy})` : ""}`,
    `  run        ${review.run.id} (${review.run.status}), workflow ${review.run.workflow ?? "?"}, step ${escalation.stepName}, guard ${escalation.guardId}`,
    `  raised     ${new Date(escalation.createdAt).toISOString()} (${age(escalation.createdAt, now)} ago)`,
  ];
  if (escalation.status === "pending") lines.push(`  deadline   ${formatTimeLeft(escalation.expiresAt, now).text}`);
  // Routing and hand-offs (docs/deadlines.md): said only when they differ from every reviewer and a failing run.
  const { reach } = escalation;
  if (reach.handOff || reach.group) lines.push(`  offered    ${reach.handOff ?? `Offered to ${reach.group}.`}`);
  if (reach.deadline && reach.deadlineStep !== "fail") lines.push(`  then       ${reach.deadline}`);
  if (escalation.claimedBy) lines.push(`  claimed by ${escalation.claimedBy}`);
  if (escalation.comment) lines.push(`  comment    ${escalation.comment}`);
  lines.push(`  hash       ${artifact.contentHash}`, `  earlier attempts: ${review.earlierAttempts.length}, dependencies: ${review.dependencies.map((dependency) => dependency.name).join(", ") || "none"}`);
  lines.push("", "Fatal feedback:", ...escalation.feedback.split("\n").map((line) => `  ${line}`), "", `Artifact (attempt ${artifact.attempt}):`);
  const content = artifact.content.split("\n");
  const width = String(content.length).length;
  content.forEach((text, index) => {
    const marker = review.offendingLine === index + 1 ? ">" : " ";
    lines.push(`${marker} ${String(index + 1).padStart(width)} | ${text}`);
  });
  return lines.join("\n");
}

/** A budget escalation: what the run spent against its budget, and how to decide. */
function formatBudgetReview(review: BudgetEscalationReview, now: number): string {
  const { escalation, budget } = review;
  const limit = (spent: string, of: string | null) => (of === null ? spent : `${spent} of ${of}`);
  const lines = [
    `Escalation ${escalation.id} (budget): ${escalation.status}${escalation.decidedBy ? ` (${escalation.decision} by ${escalation.decidedBy})` : ""}`,
    `  run        ${review.run.id} (${review.run.status}), workflow ${review.run.workflow ?? "?"}, stopped before a model call of step ${escalation.stepName}`,
    `  raised     ${new Date(escalation.createdAt).toISOString()} (${age(escalation.createdAt, now)} ago)`,
    `  tokens     ${limit(formatTokens(budget.spentTokens), budget.tokenLimit === null ? null : formatTokens(budget.tokenLimit))}`,
    `  cost       ${limit(formatUsd(budget.spentUsd), budget.usdLimit === null ? null : formatUsd(budget.usdLimit))}`,
  ];
  if (escalation.status === "pending") lines.push(`  deadline   ${formatTimeLeft(escalation.expiresAt, now).text}`, "", "Grant more budget or refuse in the review queue (dashboard, Escalations).");
  if (escalation.comment) lines.push(`  comment    ${escalation.comment}`);
  return lines.join("\n");
}
