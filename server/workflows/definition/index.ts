export { validateWorkflowDocument, MAX_STATES, MAX_STEPS, type ValidateOptions } from "./validate-definition";
export { workflowNameFromFile } from "./workflow-name";
export { promptVariables, RUN_VARIABLES } from "./check-references";
export { STEP_TYPES, ON_FAILURE, MAX_RETRIES_LIMIT, ENVELOPE_KEYS, type StepType, type OnFailure } from "./definition-schema";
export { DEFAULT_LANGUAGE, DEFAULT_MAX_RETRIES, DEFAULT_ON_FAILURE } from "./normalize";
export type { WorkflowDefinition, StepDefinition, TransitionDefinition, ComponentDefinition, PromptTemplate, ValidationResult } from "./types";
