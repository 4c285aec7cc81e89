import { z } from "zod";
import type { Context, GenerationRequest, Generator } from "../../engine";
import { GeneratorSpecError } from "../generator-spec";

/**
 * The ledger key of a fork's `run.forked` entry. The worker reads the attempt edit from it, so a
 * forked run needs nothing beyond its ledger to be executed (and resumed) like any other.
 */
export const FORK_LEDGER_KEY = "fork";

/** What a person changed in the attempt a run was forked from. */
export interface AttemptEdit {
  /** The attempt's key with its visit: "implement/attempt-2", "implement#2/attempt-1". */
  readonly attemptKey: string;
  /** Replaces the feedback the attempt receives: its history's last entry, or an entry of its own on a first attempt. */
  readonly feedback?: string;
  /** Sent verbatim as the attempt's prompt (wins over an edited feedback, which then only shows in the history). */
  readonly prompt?: string;
}

const attemptEditSchema = z.object({
  attemptKey: z.string().min(1),
  feedback: z.string().nullish(),
  prompt: z.string().nullish(),
});

/**
 * The edit carried by a fork's `run.forked` ledger payload, or undefined for a run that is no fork.
 * @throws GeneratorSpecError naming the field when the entry exists but is malformed (the run
 * cannot execute as forked, and retrying will not change that).
 */
export function readAttemptEdit(payload: unknown): AttemptEdit | undefined {
  if (payload === undefined) return undefined;
  const parsed = attemptEditSchema.safeParse(payload);
  if (!parsed.success) throw new GeneratorSpecError(`the run.forked ledger entry is malformed: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`);
  const { attemptKey, feedback, prompt } = parsed.data;
  return { attemptKey, ...(feedback != null ? { feedback } : {}), ...(prompt != null ? { prompt } : {}) };
}

function withFeedback(context: Context, feedback: string): Context {
  const history = context.feedbackHistory;
  const last = history.at(-1);
  const edited = last ? [...history.slice(0, -1), { ...last, feedback }] : [{ artifact: "", feedback }];
  return Object.freeze({ ...context, feedbackHistory: Object.freeze(edited) });
}

function editedRequest(request: GenerationRequest, edit: AttemptEdit): GenerationRequest {
  return {
    ...request,
    context: edit.feedback !== undefined ? withFeedback(request.context, edit.feedback) : request.context,
    ...(edit.prompt !== undefined ? { prompt: edit.prompt } : {}),
  };
}

/**
 * A generator that generates the forked attempt with the person's edit and every other attempt
 * as `generator` would. Only that one request changes: later attempts get the history the engine
 * keeps (their own verdicts' feedback), as in any run.
 */
export function withEditedAttempt(generator: Generator, edit: AttemptEdit): Generator {
  return {
    generate(request) {
      return generator.generate(request.attemptKey === edit.attemptKey ? editedRequest(request, edit) : request);
    },
  };
}
