import type { Generator, PromptTemplate } from "../../engine";

/**
 * Fills `{name}` in a step's prompt at generation time, from the specification, the constraints,
 * the declared context variables, the built-in prompt variables (`{run_id}`, `{attempt}`…), the
 * outputs of steps (`{steps.NAME.output}`) and the artifacts the step depends on (`{test}` or
 * `{g_test}`). `{{` and `}}` are literal braces. The validator has already rejected unknown
 * names, so a name without a value here (a dependency not produced yet) is left visible rather
 * than emptied.
 */
export function fillPromptVariables(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}/g, (match, name: string | undefined) => {
    if (match === "{{") return "{";
    if (match === "}}") return "}";
    return name !== undefined && Object.hasOwn(values, name) ? (values[name] as string) : match;
  });
}

function fillTemplate(template: PromptTemplate, values: Readonly<Record<string, string>>): PromptTemplate {
  return {
    role: fillPromptVariables(template.role, values),
    constraints: fillPromptVariables(template.constraints, values),
    task: fillPromptVariables(template.task, values),
    // {feedback} belongs to renderPrompt; other names are filled like the rest.
    feedbackWrapper: fillPromptVariables(template.feedbackWrapper, { ...values, feedback: "{feedback}" }),
  };
}

/**
 * Wraps a generator so that it sees its step's template with every variable filled in.
 * Context variables come from the request (the run's values when the generation starts, after
 * any code step changed them); `contextValues`, fixed at compile time, fill the names the
 * request does not carry. Built-in variables and step outputs come from the request's
 * `promptValues` (runMachine's, when the generation starts); `{attempt}` is the request's attempt.
 */
export function withPromptVariables(generator: Generator, contextValues: Readonly<Record<string, boolean | number | string>>): Generator {
  return {
    async generate(request) {
      if (!request.template) return generator.generate(request);
      const values: Record<string, string> = {};
      for (const [name, value] of Object.entries({ ...contextValues, ...request.variables })) values[name] = String(value);
      values.specification = request.context.specification;
      values.constraints = request.context.ambient.constraints;
      Object.assign(values, request.promptValues);
      values.attempt = String(request.attempt);
      for (const [name, artifact] of Object.entries(request.dependencies)) {
        values[name] = artifact.content;
        values[`g_${name}`] = artifact.content;
      }
      return generator.generate({ ...request, template: fillTemplate(request.template, values) });
    },
  };
}
