/** Deepest composite nesting read; a stored definition was validated, this only keeps a hostile one cheap. */
const MAX_NESTING = 16;

/**
 * The guard kinds of step `stepName` in a stored workflow definition (a JSON column: read
 * defensively), composite guards and their members included, in order without repeats. An
 * escalation names its step, not the guard that gave the fatal verdict, so a rule's `guard: security`
 * matches escalations of steps guarded by a security guard. Empty when the step is not found.
 */
export function guardKindsOfStep(definition: unknown, stepName: string): string[] {
  const steps = isRecord(definition) && Array.isArray(definition.steps) ? definition.steps : [];
  const step = steps.find((candidate): candidate is Record<string, unknown> => isRecord(candidate) && candidate.name === stepName);
  const kinds = new Set<string>();
  const visit = (guards: unknown, depth: number) => {
    if (!Array.isArray(guards) || depth > MAX_NESTING) return;
    for (const guard of guards) {
      if (!isRecord(guard) || typeof guard.kind !== "string") continue;
      kinds.add(guard.kind);
      visit(guard.guards, depth + 1);
    }
  };
  visit(step?.guards, 0);
  return [...kinds];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
