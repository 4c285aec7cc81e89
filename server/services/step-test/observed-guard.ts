import type { Guard, GuardResult } from "@/server/engine";
import { createAllOfGuard } from "@/server/guards/composite/composite-guards";
import { refusingEmpty } from "@/server/guards/composite/refuse-empty";
import type { GuardContext } from "@/server/guards/guard-context";
import type { GuardSpec } from "@/server/guards/guard-spec";
import { createGuard } from "@/server/guards/registry";
import { withGuardLimits } from "@/server/guards/with-guard-limits";

/** One guard of the step's list answering one attempt. */
export interface GuardObservation {
  /** 0-based place in the step's guards list. */
  readonly index: number;
  readonly kind: string;
  readonly result: GuardResult;
}

/** Longest a step's guards may take together; the step test's own time budget is shorter anyway. */
const ALL_GUARDS_TIMEOUT_MS = 600_000;

/**
 * The step's guard as compile-workflow builds it (each listed guard from the registry with the
 * same language, sandbox, limits and empty-content rule, combined with all_of when there are
 * several, refusing empty content unless the step allows it), with each listed guard's verdict reported to `observe`. The step's verdict is the
 * same: all_of stops at the first failure, so the guards after it are not run, as in a run.
 */
export function observedStepGuard(specs: readonly GuardSpec[], context: GuardContext, where: string, observe: (observation: GuardObservation) => void): Guard {
  const members = specs.map((spec, index): Guard => {
    const guard = createGuard(spec, context, `${where}.${index}`);
    return {
      async validate(artifact, dependencies, options) {
        const result = await guard.validate(artifact, dependencies, options);
        observe({ index, kind: spec.kind, result });
        return result;
      },
    };
  });
  if (members.length === 1) return members[0]!;
  const all = withGuardLimits("all_of", createAllOfGuard(members), ALL_GUARDS_TIMEOUT_MS);
  return context.allowEmpty ? all : refusingEmpty(all);
}
