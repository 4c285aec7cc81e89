/**
 * Public API of the Dualstate engine: the dual-state agent of 000/001 in TypeScript.
 * Framework-free by rule: nothing here imports Next, React, Prisma or tRPC.
 */
export { createArtifact, hashContent, type Artifact } from "./domain/artifact";
export { passed, failed, fatal, type GuardResult } from "./domain/guard-result";
export { isBlank, unansweredFeedback, EMPTY_REPLY_FEEDBACK } from "./domain/answer-check";
export { composeContext, refineContext, type AmbientEnvironment, type Context, type FeedbackEntry } from "./domain/context";
export {
  createPromptTemplate,
  renderPrompt,
  renderBasicPrompt,
  requestPrompt,
  DEFAULT_FEEDBACK_WRAPPER,
  type PromptTemplate,
} from "./domain/prompt-template";
export {
  initialWorkflowState,
  isSatisfied,
  isGoalState,
  satisfy,
  artifactIdFor,
  type WorkflowState,
} from "./domain/workflow-state";
export {
  always,
  requiresGuards,
  canExecute,
  executeActionPair,
  type ActionPair,
  type Precondition,
  type ActionPairOutcome,
} from "./domain/action-pair";
export type { WorkflowResult, WorkflowStatus, ProvenanceEntry } from "./domain/workflow-result";
/** The start of the reason of a run that reached a final state without its goal (domain/goal.ts). */
export { GOAL_NOT_REACHED } from "./domain/goal";
export { runDualStateAgent, type AgentInput, type AgentOutcome } from "./agent/dual-state-agent";
export { executeWorkflow, extractDependencies, DEFAULT_RMAX, type WorkflowRun } from "./agent/workflow";
export { dependencyName, dependencyIdsOf, type WorkflowStep } from "./agent/step";
export type { ArtifactDag, StoredArtifact } from "./ports/artifact-dag";
export { STEP_KINDS, DEFAULT_STEP_KIND, isStepKind, storedStepKind, type StepKind, type UnguardedStepKind } from "./domain/step-kind";
export { artifactRowOf, type ArtifactRow } from "./domain/artifact-row";
export { DECISION_KEY_SUFFIX, attemptKeyOf, editKeyOf, exhaustedKeyOf, decisionKeyOf, classifyDecisionKey, type DecisionKeyClass } from "./domain/decision-keys";
export {
  promptValues,
  withAttempt,
  boundedText,
  ACTION_HISTORY_LENGTH,
  ACTION_HISTORY_LINE_LIMIT,
  PROMPT_OUTPUT_LIMIT,
  type RunIdentity,
  type StepOutputEntry,
  type PromptValueInput,
} from "./domain/prompt-values";
export type { Generator, GenerationRequest, Generation } from "./ports/generator";
export type { Guard, GuardCallOptions, GuardDependencies } from "./ports/guard";
export { randomIds, sequentialIds, type IdGenerator } from "./ports/ids";
export { silentObserver, type RunObserver, type EngineEvent, type EngineEventType } from "./ports/run-observer";
export {
  EngineError,
  PreconditionNotMetError,
  ArtifactNotFoundError,
  ArtifactExistsError,
  isEngineError,
  type EngineErrorCode,
} from "./errors";
export { RunNotFoundError, InvalidWorkflowError, GenerationFailedError, GuardUnavailableError, StepConfigurationError, configurationErrorOf } from "./errors";
export { RUN_STATUSES, type RunStatus, type RunRecord, type RunResultSummary, type LedgerEntryRecord, type LedgerActor, type EscalationRecord, type EscalationStatus } from "./run/run-record";
export type { RunRepository, NewRun } from "./run/run-repository";
export { recordEvent, type EventRecord, type RunPatch, type EscalationDraft } from "./run/record-event";
export { summarizeResult } from "./run/summarize-result";
export { CallFailedError, type CallLedger, type CallRequest, type CallOutcome, type CallError, type CallIdentity, type JsonObject, type JsonValue } from "./ports/call-ledger";
export { callIdentity, IDEMPOTENCY_HEADER } from "./run/idempotency-key";
export { MemoryCallLedger, type MemoryLedgerStep } from "./run/memory-call-ledger";
export { abortable, abortableSleep } from "./run/abortable";
export * from "./conditions";
export * from "./machine";
export * from "./policy";
