/**
 * Words the run page uses for issue 18's rows: waiting tools, turns, execution edges. Pure, so
 * tests read the same sentences people see.
 */

import type { RunExecutionEdge } from "@/server/services/runs/execution/execution-edges";

/** Who answers a waiting tool of each kind. */
export function waitingOn(kind: string): string {
  switch (kind) {
    case "person":
      return "a person's answer";
    case "workflow":
      return "a sub-run";
    case "external":
      return "another system's report";
    default:
      return kind;
  }
}

/** What a bounded list shows: "" when it shows everything, else "the newest 100 of 250 turns". */
export function shownOf(shown: number, total: number, noun: string): string {
  return total > shown ? `the newest ${shown} of ${total} ${noun}` : "";
}

/** An edge as describeEdge reads it: the service's shape, its tool and reporter optional (provenance's edges carry fewer fields). */
export type EdgeLike = Omit<RunExecutionEdge, "id" | "createdAt" | "tool" | "by"> & Partial<Pick<RunExecutionEdge, "tool" | "by">>;

/**
 * One edge as a sentence from this run's side (003 3.1.1): an inbox message enqueued (by whom),
 * a result reported, a waiting call made, a sub-run joined; and the other run it links to, if any.
 */
export function describeEdge(edge: EdgeLike): { text: string; otherRunId: string | null } {
  const kind = edge.kind ?? "";
  const call = edge.callId ? ` for call ${edge.callId}` : "";
  const tool = edge.tool ? ` (${edge.tool})` : "";
  switch (edge.primitive) {
    case "enqueue":
      if (edge.direction === "out") return { text: `${kind || "a"} message sent to ${edge.callId ? "sub-run" : "run"}${call}`, otherRunId: edge.runId };
      return { text: `${kind || "a"} message enqueued${edge.fromRunId ? ` by run${call}` : ""}`, otherRunId: edge.fromRunId };
    case "report":
      if (kind === "timeout" || edge.by === "watchdog") return { text: `timeout reported${call}${tool}`, otherRunId: null };
      if (edge.fromRunId) return { text: `sub-run's result reported${call}${tool}`, otherRunId: edge.fromRunId };
      return { text: `result reported${edge.by ? ` by ${edge.by}` : ""}${call}${tool}`, otherRunId: null };
    case "tool_call":
      return { text: `waits for ${waitingOn(kind)}${call}${tool}`, otherRunId: null };
    case "join":
      if (edge.direction === "out") return { text: edge.phase === "request" ? `started sub-run${call}` : `result joined the parent${call}`, otherRunId: edge.runId };
      return edge.phase === "request" ? { text: `started by parent${call}`, otherRunId: edge.fromRunId } : { text: `sub-run's result joined${call}`, otherRunId: edge.fromRunId };
    default:
      return { text: `${edge.primitive} ${kind}`.trim(), otherRunId: edge.fromRunId };
  }
}

const OUTCOME_TONES: Record<string, "good" | "bad" | "wait" | "neutral"> = {
  succeeded: "good",
  suspended: "wait",
  deferred: "wait",
  failed: "bad",
  lost: "bad",
  cancelled: "neutral",
};

/** How a turn's outcome is coloured. */
export function outcomeTone(outcome: string): "good" | "bad" | "wait" | "neutral" {
  return OUTCOME_TONES[outcome] ?? "neutral";
}
