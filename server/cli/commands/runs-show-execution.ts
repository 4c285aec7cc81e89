import { formatTimeLeft } from "../../services/escalations/format-time-left";
import type { RunExecution } from "../../services/runs/execution/get-run-execution";

/** One line, whatever the text held: questions and reasons may span lines. */
const oneLine = (text: string, max = 200) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

const more = (shown: number, total: number) => (total > shown ? `, the newest ${shown} shown` : "");

/**
 * The `runs show` lines for issue 18: one line per turn (epoch, message kind, outcome, reason),
 * each call the run waits for (call id, tool, kind, since, deadline), its parent and sub-runs,
 * and what the watchdog did beyond its last note (printed with the head).
 */
export function executionLines(execution: RunExecution, now = Date.now()): string[] {
  const lines: string[] = [];
  const { turns, waits, family, watchdog } = execution;
  lines.push(`  turns: ${turns.total}${more(turns.items.length, turns.total)}`);
  for (const turn of turns.items) {
    lines.push(`    epoch ${turn.epoch}  ${(turn.kind ?? "-").padEnd(7)} ${turn.outcome.padEnd(9)}${turn.deliverable ? ` ${oneLine(turn.deliverable)}` : ""}`);
  }
  const waiting = waits.items.filter((wait) => wait.status === "waiting");
  if (waits.waiting > 0) {
    lines.push(`  waiting for ${waits.waiting === 1 ? "1 call" : `${waits.waiting} calls`}:`);
    for (const wait of waiting) {
      const left = formatTimeLeft(wait.deadlineAt, now).text;
      lines.push(`    ${wait.callId}  ${wait.tool}  ${wait.kind}  since ${wait.since.toISOString()}  deadline ${wait.deadlineAt.toISOString()} (${left})`);
      if (wait.question) lines.push(`      question: ${oneLine(wait.question, 500)}`);
      if (wait.kind === "workflow") lines.push(`      sub-run: ${wait.childRunId ?? "not started yet"}${wait.workflow ? ` (${wait.workflow})` : ""}`);
      if (wait.reportCommand) lines.push(`      report: ${wait.reportCommand}`);
    }
  }
  if (family.parent) {
    const call = family.parent.call ? `: ${family.parent.call.tool} in step ${family.parent.call.stepName}, ${family.parent.call.status}` : "";
    lines.push(`  sub-run of ${family.parent.runId}${family.parent.callId ? ` (call ${family.parent.callId}${call})` : ""}`);
  }
  if (family.childCount > 0) {
    lines.push(`  sub-runs: ${family.childCount}${more(family.children.length, family.childCount)}`);
    for (const child of family.children) lines.push(`    ${child.runId}  ${child.status.padEnd(10)}${child.callId ? ` for call ${child.callId}${child.tool ? ` (${child.tool})` : ""}` : ""}`);
  }
  const actions = watchdog.items.filter((item) => item.action !== "note");
  if (actions.length > 0) {
    lines.push(`  watchdog actions: ${watchdog.total}${more(watchdog.items.length, watchdog.total)}`);
    for (const item of actions) lines.push(`    ${item.at?.toISOString() ?? "-"}  ${oneLine(item.text)}`);
  }
  return lines;
}
