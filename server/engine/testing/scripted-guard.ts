import type { Artifact } from "../domain/artifact";
import type { GuardResult } from "../domain/guard-result";
import type { Guard, GuardDependencies } from "../ports/guard";

/** A guard whose verdicts are scripted in order; it records what it was handed. */
export class ScriptedGuard implements Guard {
  readonly calls: { artifact: Artifact; dependencies: GuardDependencies }[] = [];
  readonly #verdicts: GuardResult[];

  constructor(verdicts: readonly GuardResult[]) {
    this.#verdicts = [...verdicts];
  }

  async validate(artifact: Artifact, dependencies: GuardDependencies): Promise<GuardResult> {
    const verdict = this.#verdicts[this.calls.length];
    if (!verdict) throw new Error(`ScriptedGuard: no scripted verdict for call ${this.calls.length + 1}`);
    this.calls.push({ artifact, dependencies });
    return verdict;
  }
}

/** A guard that decides from the artifact content, for tests that read like the 000 tables. */
export function guardFrom(decide: (artifact: Artifact, dependencies: GuardDependencies) => GuardResult): Guard & { calls: number } {
  const guard = {
    calls: 0,
    async validate(artifact: Artifact, dependencies: GuardDependencies) {
      guard.calls += 1;
      return decide(artifact, dependencies);
    },
  };
  return guard;
}
