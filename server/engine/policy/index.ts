/** The policy runtime of 002: one interface for models, people and code. See docs/policies.md. */
export { createAction, type Action } from "./action";
export { Ledger } from "./ledger";
export {
  STEP_TYPES,
  createStep,
  textStep,
  actionCallStep,
  resultStep,
  errorStep,
  isErrorStep,
  isErrorPayload,
  callOf,
  type Step,
  type StepType,
  type ErrorPayload,
} from "./step";
export type { PolicyContext, RuntimeContext, Policy, Decorator } from "./policy";
export { PolicyRegistry, PolicyRegistrationError, type PolicyEntry, type ToolRun, type RegExpEngine, type InputCheck } from "./registry";
export { MAX_INPUT_BYTES, MAX_INPUT_DEPTH, MAX_SCHEMA_BYTES, MAX_SCHEMA_DEPTH, depthExceeds } from "./input-bounds";
export { policyLedgerOn, memoryPolicyLedger, type PolicyLedger } from "./policy-ledger";
export { POLICY_ERROR_CODES, PolicyInvariantError, PolicyLedgerError } from "./policy-errors";
export { loopWrapper, invokeAction, MAX_LOOP_TURNS, DEFAULT_MAX_CALLS_PER_TURN, MAX_CALLS_PER_TURN } from "./decorators";
export { runPolicy, type RunPolicyOptions, type PolicyRun } from "./runner";
export { DEFAULT_RUN_LIMITS, type CallTrace, type RunLimits } from "./runtime";
export {
  ToolsPendingError,
  isToolsPending,
  WAITING_TOOL_KINDS,
  MIN_WAIT_MS,
  MAX_WAIT_MS,
  TIMEOUT_ERROR_CODE,
  SUB_RUN_FAILED_CODE,
  type ToolWaitRequest,
  type WaitingToolKind,
} from "./waiting";
