import { failed, isBlank, type Guard } from "../../engine";

export const EMPTY_ARTIFACT_FEEDBACK = "The artifact is empty (nothing but whitespace): there is nothing to check.";

/**
 * No guard passes empty content unless its step allows it (`allow_empty`). The engine already
 * fails an empty reply before any guard runs; this holds the same rule where a guard is used on
 * its own (a reviewer's edit, an agent's draft check, the CLI) and for every member of a
 * composite, so an any_of with a lenient member (a syntax check of nothing) cannot pass it.
 */
export function refusingEmpty(guard: Guard): Guard {
  return {
    async validate(artifact, dependencies, options) {
      if (isBlank(artifact.content)) return failed(EMPTY_ARTIFACT_FEEDBACK);
      return guard.validate(artifact, dependencies, options);
    },
  };
}
