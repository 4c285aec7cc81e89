import type { Context } from "./context";

/**
 * Structured prompt (001 `PromptTemplate`): role, constraints and task, with each guard
 * rejection wrapped so the model reads it as an instruction ("Coach", 001 section 8.1.1).
 */
export interface PromptTemplate {
  readonly role: string;
  readonly constraints: string;
  readonly task: string;
  /** `{feedback}` is replaced by the guard's feedback. */
  readonly feedbackWrapper: string;
}

export const DEFAULT_FEEDBACK_WRAPPER = "GUARD REJECTION:\n{feedback}\nInstruction: Address the rejection above.";

export function createPromptTemplate(fields: {
  role: string;
  constraints: string;
  task: string;
  feedbackWrapper?: string;
}): PromptTemplate {
  return Object.freeze({ ...fields, feedbackWrapper: fields.feedbackWrapper ?? DEFAULT_FEEDBACK_WRAPPER });
}

/**
 * Renders # ROLE, # CONSTRAINTS, # CONTEXT, # HISTORY (Context Refinement) with one
 * "--- Attempt i ---" block per failed attempt, and # TASK, in that order, separated by blank
 * lines. A section with nothing in it (a blank role, no constraints, no history) is left out:
 * an empty header only tells the model there is nothing there.
 */
export function renderPrompt(template: PromptTemplate, context: Context): string {
  const parts: string[] = [];
  if (template.role.trim()) parts.push(`# ROLE\n${template.role}`);
  if (template.constraints.trim()) parts.push(`# CONSTRAINTS\n${template.constraints}`);
  if (context.ambient.constraints.trim()) parts.push(`# CONTEXT\n${context.ambient.constraints}`);
  if (context.feedbackHistory.length > 0) {
    parts.push("# HISTORY (Context Refinement)");
    context.feedbackHistory.forEach((entry, index) => {
      // A replacer function, so "$&", "$1" or "$$" in the feedback are inserted literally.
      const wrapped = template.feedbackWrapper.replaceAll("{feedback}", () => entry.feedback);
      parts.push(`--- Attempt ${index + 1} ---\n${wrapped}`);
    });
  }
  parts.push(`# TASK\n${template.task}`);
  return parts.join("\n\n");
}

/** The fallback prompt of 001 for generators called without a template. */
export function renderBasicPrompt(context: Context): string {
  const parts = [context.specification];
  if (context.currentArtifact) parts.push(`\nPrevious attempt:\n${context.currentArtifact}`);
  if (context.feedbackHistory.length > 0) {
    const feedback = context.feedbackHistory.map((entry, i) => `Attempt ${i + 1} feedback: ${entry.feedback}`).join("\n");
    parts.push(`\nFeedback history:\n${feedback}`);
  }
  return parts.join("\n");
}

/** The prompt a generator sends: the request's own (an edited one) or the one its template and context render. */
export function requestPrompt(request: { readonly prompt?: string; readonly template: PromptTemplate | undefined; readonly context: Context }): string {
  if (request.prompt !== undefined) return request.prompt;
  return request.template ? renderPrompt(request.template, request.context) : renderBasicPrompt(request.context);
}
