import { createStep, type Step } from "./step";

/**
 * A policy's ledger (002 sections 2.3 and 3.2): an immutable, append-only sequence of steps.
 * Appending returns a new Ledger; each step entering it gets its id from the ledger's scope and
 * its position, so a policy replayed from the same start produces the same ledger.
 */
export class Ledger implements Iterable<Step> {
  readonly steps: readonly Step[];

  constructor(
    /** Where this policy's entries live in the run's ledger: "agent", "agent/2.model". */
    readonly scope: string,
    steps: readonly Step[] = [],
  ) {
    this.steps = Object.freeze([...steps]);
  }

  append(step: Step): Ledger {
    return this.extend([step]);
  }

  extend(steps: Iterable<Step>): Ledger {
    const next = [...this.steps];
    for (const step of steps) next.push(createStep({ ...step, id: `${this.scope}#${next.length + 1}` }));
    return new Ledger(this.scope, next);
  }

  get length(): number {
    return this.steps.length;
  }

  at(index: number): Step | undefined {
    return this.steps.at(index);
  }

  [Symbol.iterator](): Iterator<Step> {
    return this.steps[Symbol.iterator]();
  }
}
