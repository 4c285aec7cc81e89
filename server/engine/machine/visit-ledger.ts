import type { CallLedger } from "../ports/call-ledger";

/**
 * The run's ledger as seen by one visit of a step. runDualStateAgent keys calls
 * `<step>/attempt-<n>`; on the second and later visits of a state (loops) those keys are
 * rewritten to `<step>#<visit>/attempt-<n>`, so a revisit never replays the first visit's calls.
 * The first visit keeps the plain keys, which makes a linear machine record exactly what
 * executeWorkflow records.
 */
export function visitLedger(calls: CallLedger, stepName: string, visit: number): CallLedger {
  if (visit <= 1) return calls;
  const prefix = `${stepName}/`;
  const rewrite = (key: string) => (key.startsWith(prefix) ? `${stepName}#${visit}/${key.slice(prefix.length)}` : key);
  return {
    call: (key, request, perform) => calls.call(rewrite(key), request, perform),
    note: (key, actor, text) => calls.note(rewrite(key), actor, text),
  };
}
