export { compileWorkflow, type CompileContext } from "./compile-workflow";
export { fillPromptVariables, withPromptVariables } from "./prompt-variables";
export { runCodeStep } from "./code-step-runner";
