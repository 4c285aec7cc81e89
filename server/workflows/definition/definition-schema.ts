/**
 * The shape of a workflow document (issue 5): 004's `workflow:` block extended with 001's
 * action pairs. Shape only: cross-references (states, guard ids, variables) are checked in
 * check-*.ts, and defaults are applied in normalize.ts, so this schema stays declarative.
 * Every object is strict: an unknown key is a validation error, never silently ignored.
 */
import { z } from "zod";
import { ON_FAILURE, STEP_TYPES, type OnFailure, type StepType } from "../../engine/domain/catalogue";
import { GeneratorSpecError, parseGeneratorSpec, type GeneratorSpec } from "../../generators/generator-spec";
import { GuardSpecError, parseGuardSpec, type GuardSpec } from "../../guards/guard-spec";
import { normalizeLanguage, type GuardLanguage } from "../../guards/language";
import { toolsSchema } from "./tools/tool-schema";
import { workflowBudgetSchema } from "./budget-schema";
import { workflowNameSchema } from "./workflow-name";

// Listed once, with their explanations, in the catalogue the designer's palette shows.
export { ON_FAILURE, STEP_TYPES, type OnFailure, type StepType };
export const MAX_RETRIES_LIMIT = 20;

const text = z.string();
/** A name of a state, step, guard id or component. */
export const nameSchema = z.string().trim().min(1, "must not be empty");
const name = nameSchema;
const retries = z
  .number()
  .int("must be a whole number")
  .min(0, `must be between 0 and ${MAX_RETRIES_LIMIT}`)
  .max(MAX_RETRIES_LIMIT, `must be between 0 and ${MAX_RETRIES_LIMIT}`);

const language = z.string().transform((value, ctx): GuardLanguage => {
  const normalized = normalizeLanguage(value);
  if (normalized) return normalized;
  ctx.addIssue({ code: "custom", message: `unknown language "${value}" (use javascript, typescript or python, or js, ts, py)` });
  return z.NEVER;
});

/**
 * The guard and generator parsers report "where.path: message" lines; a sentinel `where` lets
 * us turn each line back into a zod issue at the right sub-path (so line/column still work).
 */
const SENTINEL = "@";
function reissue(error: Error, ctx: z.RefinementCtx): void {
  for (const line of error.message.split("\n")) {
    const split = line.indexOf(": ");
    const where = split < 0 ? SENTINEL : line.slice(0, split);
    const message = split < 0 ? line : line.slice(split + 2);
    const path = where.slice(SENTINEL.length).split(".").filter(Boolean).map((part) => (/^\d+$/.test(part) ? Number(part) : part));
    ctx.addIssue({ code: "custom", path, message });
  }
}

const guard = z.unknown().transform((value, ctx): GuardSpec => {
  try {
    return parseGuardSpec(value, SENTINEL);
  } catch (error) {
    if (!(error instanceof GuardSpecError)) throw error;
    reissue(error, ctx);
    return z.NEVER;
  }
});

const generator = z.unknown().transform((value, ctx): GeneratorSpec => {
  try {
    return parseGeneratorSpec(value, SENTINEL);
  } catch (error) {
    if (!(error instanceof GeneratorSpecError)) throw error;
    reissue(error, ctx);
    return z.NEVER;
  }
});

/** A plain string is the task; the object form is 001's prompt template. */
const prompt = z.preprocess(
  (value) => (typeof value === "string" ? { task: value } : value),
  z.object({ role: text.optional(), constraints: text.optional(), task: text.optional(), feedback_wrapper: text.optional() }).strict(),
);

export const stepSchema = z
  .object({
    name,
    type: z.enum(STEP_TYPES).optional(),
    /** A state, a list of states, or "*" for any state (server/engine/domain/in-state.ts). */
    in_state: z.union([name, z.array(name).min(1, "must list at least one state")], { message: "must be a state name or a list of state names" }),
    guard_id: name.optional(),
    generator: generator.optional(),
    prompt: prompt.optional(),
    guards: z.array(guard).optional(),
    guard_artifact_deps: z.array(name).optional(),
    /** Empty content is a valid artifact of this action pair (docs/workflow-format.md). */
    allow_empty: z.boolean().optional(),
    max_retries: retries.optional(),
    /** 001's name for max_retries; normalize.ts folds it in. */
    rmax: retries.optional(),
    on_failure: z.enum(ON_FAILURE).optional(),
    run_if: text.optional(),
    /** 001's ρ: a condition over guard ids that must hold when the action pair's turn comes, or the run fails. */
    precondition: text.optional(),
    transition_to: name.optional(),
    transition_map: z.record(z.string(), name).optional(),
    code: text.optional(),
    language: language.optional(),
  })
  .strict();

export const transitionSchema = z.object({ from: name, to: name, condition: text.optional() }).strict();

const stateMachine = z
  .object({
    states: z.array(name).min(1, "must list at least one state"),
    initial_state: name,
    final_states: z.array(name).min(1, "must list at least one final state"),
    transitions: z.array(transitionSchema).optional(),
  })
  .strict();

export const componentSchema = z.object({ name, text, inject_into: z.array(name) }).strict();

export const workflowSchema = z
  .object({
    name: workflowNameSchema,
    description: text.optional(),
    specification: text.optional(),
    constraints: text.optional(),
    language: language.optional(),
    default_on_failure: z.enum(ON_FAILURE).optional(),
    default_max_retries: retries.optional(),
    context: z.record(z.string(), z.union([z.boolean(), z.number(), z.string()], { message: "must be a boolean, number or string" })).optional(),
    components: z.array(componentSchema).optional(),
    /** Tools agent steps may call, by name (issue 18; tools/tool-schema.ts, checked in tools/check-tools.ts). */
    tools: toolsSchema.optional(),
    state_machine: stateMachine,
    /** Empty: the machine moves by its transitions alone (a warning, check-steps.ts). */
    steps: z.array(stepSchema),
    /** Guard ids forming the goal (000 Sgoal); absent: every action pair that ran (docs/workflow-format.md, Goal state). */
    goal: z.array(name).optional(),
    /** What each run may spend on model calls, and what crossing it does (budget-schema.ts). */
    budget: workflowBudgetSchema.optional(),
  })
  .strict();

/** Keys an agent.yaml-style document may hold beside `workflow:`; they describe, never configure. Others are kept and ignored. */
export const ENVELOPE_KEYS = ["workflow", "name", "description", "version"] as const;
export const envelopeSchema = z
  .object({ workflow: z.unknown(), name: text.optional(), description: text.optional(), version: z.union([z.string(), z.number()], { message: "must be text or a number" }).optional() })
  .strict();

export type RawWorkflow = z.infer<typeof workflowSchema>;
export type RawStep = RawWorkflow["steps"][number];
export type RawTransition = z.infer<typeof transitionSchema>;
export type RawComponent = z.infer<typeof componentSchema>;
