import type { LedgerEntryRecord } from "../run/run-record";

const ENGINE_EVENTS = new Set(["run.started", "step.started", "generator.completed", "guard.completed", "state.advanced", "step.escalated", "step.exhausted", "run.finished"]);

/**
 * Reads a run's ledger back as the actions of 000's percept-sequence tables, so tests can state
 * expectations exactly as the tables do. Artifacts are named a1, a2... in the order generated.
 */
export function perceptActions(ledger: readonly LedgerEntryRecord[]): string[] {
  const names = new Map<string, string>();
  const nameOf = (artifactId: unknown) => names.get(String(artifactId)) ?? "?";
  const actions: string[] = [];
  ledger.forEach((entry, index) => {
    const p = entry.payload;
    switch (entry.type) {
      case "generator.completed":
        names.set(String(p.artifactId), `a${names.size + 1}`);
        actions.push("QUERY-LLM");
        break;
      case "guard.completed": {
        const deps = Object.entries(dependencyIdsAt(ledger, index)).map(([name, id]) => `${name}: ${nameOf(id)}`);
        actions.push(`EXECUTE-GUARD(${nameOf(p.artifactId)}, deps={${deps.join(", ")}})`);
        // Generator call steps (action_call, action_result, text) may sit in between.
        const retriedAfter = ledger.slice(index + 1).find((next) => ENGINE_EVENTS.has(next.type))?.type === "generator.completed";
        if (!p.passed && !p.fatal && retriedAfter) actions.push("REFINE-CONTEXT");
        break;
      }
      case "state.advanced":
        actions.push("ADVANCE-STATE");
        break;
      case "step.escalated":
        actions.push(`ESCALATE-TO-USER(${nameOf(p.artifactId)}, ${String(p.feedback)})`);
        break;
      case "step.exhausted":
        actions.push("REPLY-TO-USER(failure, provenance)");
        break;
      case "run.finished":
        // The reply carries the artifact of the last advance; the stored map has no reliable order (jsonb).
        if (p.status === "success") actions.push(`REPLY-TO-USER(${nameOf(lastAdvancedArtifact(ledger))})`);
        break;
    }
  });
  return actions;
}

/** Dependencies handed to the guard of the step the entry at `index` belongs to. */
function dependencyIdsAt(ledger: readonly LedgerEntryRecord[], index: number): Record<string, string> {
  for (let i = index; i >= 0; i--) {
    const entry = ledger[i];
    if (entry?.type === "step.started") return entry.payload.dependencyIds as Record<string, string>;
  }
  return {};
}

function lastAdvancedArtifact(ledger: readonly LedgerEntryRecord[]): unknown {
  return ledger.findLast((entry) => entry.type === "state.advanced")?.payload.artifactId;
}
