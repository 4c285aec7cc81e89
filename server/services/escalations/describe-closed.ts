/** Why an escalation can no longer be decided, in words a reviewer can act on. */
export function describeClosedEscalation(escalation: {
  id: string;
  runId: string;
  status: string;
  decision: string | null;
  decidedBy: string | null;
  decidedAt: Date | null;
}): string {
  const when = escalation.decidedAt ? ` at ${escalation.decidedAt.toISOString()}` : "";
  switch (escalation.status) {
    case "expired":
      return `Escalation ${escalation.id} expired${when}: run ${escalation.runId} stopped waiting for a decision and failed. Start a new run instead.`;
    case "cancelled":
      return `Escalation ${escalation.id} was cancelled${when}: run ${escalation.runId} was cancelled, so there is nothing left to decide.`;
    default:
      return `${escalation.decidedBy ?? "Someone"} decided first${when}: ${escalation.decision ?? escalation.status} (escalation ${escalation.id} is ${escalation.status}).`;
  }
}
