import type { JsonObject } from "../ports/call-ledger";

/**
 * The edge passed into a policy (002 section 3.3): which policy runs, with what payload (always
 * an object), and the names of the policies it may call in turn.
 */
export interface Action {
  readonly policy: string;
  readonly payload: JsonObject;
  readonly actions: ReadonlySet<string>;
}

export function createAction(policy: string, payload: JsonObject = {}, actions: Iterable<string> = []): Action {
  return Object.freeze({ policy, payload: Object.freeze(structuredClone(payload)), actions: new FrozenSet(actions) });
}

/** Sets past their construction (Set's constructor calls add, before any field of a subclass exists). */
const sealed = new WeakSet<object>();

/** A Set whose add/delete/clear throw: an Action's allowed actions cannot grow after it is made. */
class FrozenSet<T> extends Set<T> {
  constructor(values: Iterable<T>) {
    super(values);
    sealed.add(this);
  }
  override add(value: T): this {
    if (sealed.has(this)) throw new TypeError("An Action's allowed actions cannot be changed");
    return super.add(value);
  }
  override delete(): boolean {
    throw new TypeError("An Action's allowed actions cannot be changed");
  }
  override clear(): void {
    throw new TypeError("An Action's allowed actions cannot be changed");
  }
}
