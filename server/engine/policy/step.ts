/**
 * Steps (002 section 3.1): the immutable entries of a policy's ledger. A policy returns steps
 * without ids; the runtime gives each its id when it enters a ledger (`<scope>#<position>`), so
 * a replayed policy produces the same ids again.
 */
import type { JsonObject } from "../ports/call-ledger";
import { POLICY_ERROR_CODES } from "./policy-errors";

export const STEP_TYPES = ["text", "action_call", "action_result"] as const;
export type StepType = (typeof STEP_TYPES)[number];

export interface Step {
  /** Engine-generated; "" until the step is in a ledger. */
  readonly id: string;
  /** Who produced it: "user", "assistant", a policy's name. */
  readonly actor: string;
  readonly type: StepType;
  readonly payload: JsonObject;
  /** On an action_result: the id of the action_call step it answers (a model's protocol pairs them). */
  readonly cause?: string;
}

/** A result that is a failure, kept as data (002 section 5.4). */
export interface ErrorPayload {
  readonly error: true;
  readonly code: string;
  readonly message: string;
}

/** Freezes every object inside `value`, walking without recursion (a payload may nest deep). */
function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== "object" || current === null || Object.isFrozen(current)) continue;
    Object.freeze(current);
    stack.push(...Object.values(current));
  }
  return value;
}

/** A frozen step over a copy of its payload: a caller keeping the object cannot change the ledger. */
export function createStep(step: { id?: string; actor: string; type: StepType; payload: JsonObject; cause?: string }): Step {
  const payload = structuredClone(step.payload);
  return deepFreeze({ id: step.id ?? "", actor: step.actor, type: step.type, payload, ...(step.cause !== undefined ? { cause: step.cause } : {}) });
}

export const textStep = (actor: string, text: string): Step => createStep({ actor, type: "text", payload: { text } });

/** A policy's decision to call another (5.2): `ref` is the caller's own name for the call, e.g. a model's tool-call id. */
export function actionCallStep(actor: string, policy: string, payload: JsonObject | string, ref?: string): Step {
  return createStep({ actor, type: "action_call", payload: { policy, payload, ...(ref !== undefined ? { ref } : {}) } });
}

export const resultStep = (actor: string, payload: JsonObject): Step => createStep({ actor, type: "action_result", payload });

export function errorStep(actor: string, code: string, message: string): Step {
  return resultStep(actor, { error: true, code, message });
}

export function isErrorPayload(payload: unknown): payload is ErrorPayload {
  if (typeof payload !== "object" || payload === null) return false;
  const candidate = payload as Record<string, unknown>;
  return candidate.error === true && typeof candidate.code === "string" && typeof candidate.message === "string";
}

export const isErrorStep = (step: Step): boolean => step.type === "action_result" && isErrorPayload(step.payload);

/** The policy an action_call step names, and what it passes. */
export function callOf(step: Step): { policy: string; payload: JsonObject | string; ref: string | undefined } {
  const policy = typeof step.payload.policy === "string" ? step.payload.policy : "";
  const raw = step.payload.payload;
  const payload = typeof raw === "string" || (typeof raw === "object" && raw !== null && !Array.isArray(raw)) ? raw : {};
  return { policy, payload, ref: typeof step.payload.ref === "string" ? step.payload.ref : undefined };
}

/** Steps as the durable ledger stores a call's result. */
export function stepsToJson(steps: readonly Step[]): JsonObject {
  return { steps: steps.map((step) => ({ actor: step.actor, type: step.type, payload: step.payload, ...(step.cause !== undefined ? { cause: step.cause } : {}) })) };
}

/**
 * Steps read back from a recorded result. A row written by an older version or edited in the
 * database is not trusted: anything that is not a well-formed step becomes an error step.
 */
export function stepsFromJson(actor: string, recorded: JsonObject): Step[] {
  const list = recorded.steps;
  if (!Array.isArray(list)) return [errorStep(actor, POLICY_ERROR_CODES.corruptRecord, `The recorded result of ${actor} holds no steps`)];
  return list.map((entry) => {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return errorStep(actor, POLICY_ERROR_CODES.corruptRecord, `A recorded step of ${actor} is not an object`);
    const type = STEP_TYPES.find((known) => known === entry.type);
    const payload = entry.payload;
    if (!type || typeof entry.actor !== "string" || typeof payload !== "object" || payload === null || Array.isArray(payload)) {
      return errorStep(actor, POLICY_ERROR_CODES.corruptRecord, `A recorded step of ${actor} is malformed`);
    }
    return createStep({ actor: entry.actor, type, payload, ...(typeof entry.cause === "string" ? { cause: entry.cause } : {}) });
  });
}
