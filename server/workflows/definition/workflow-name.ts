import { z } from "zod";

/**
 * The one rule for a workflow's name, used wherever a name enters: the document validator (so the
 * API's save and the CLI's run and validate), rename, and the dashboard's forms. A name is shown
 * in pages and URLs and used as a file name on export, so it is short and plain:
 * 1–100 characters of ASCII letters, digits, space, `-`, `_` and `.`, starting and ending with a
 * letter or digit, with no `..`. Slashes, control characters and path tricks cannot get in.
 */
export const MAX_WORKFLOW_NAME_LENGTH = 100;
const ALLOWED = /^[A-Za-z0-9 ._-]*$/;
const ENDS = /^[A-Za-z0-9](?:.*[A-Za-z0-9])?$/s;

/** What is wrong with `name` as a workflow name, or null when it is fine. Not trimmed: spaces at either end are refused. */
export function workflowNameProblem(name: string): string | null {
  if (name.length === 0) return "must not be empty";
  if (name.length > MAX_WORKFLOW_NAME_LENGTH) return `must be at most ${MAX_WORKFLOW_NAME_LENGTH} characters (it has ${name.length})`;
  if (!ALLOWED.test(name)) return "may hold only letters A–Z, digits, spaces, '-', '_' and '.'";
  if (!ENDS.test(name)) return "must start and end with a letter or a digit";
  if (name.includes("..")) return "must not contain '..'";
  return null;
}

export const workflowNameSchema = z.string().superRefine((name, ctx) => {
  const problem = workflowNameProblem(name);
  if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
});

/**
 * The name a document without one takes from its file (004's agent.yaml has none): the file's
 * name without folders and without its .yaml/.yml/.json ending.
 */
export function workflowNameFromFile(file: string): string {
  const base = file.split(/[\\/]/).at(-1) ?? file;
  return base.replace(/\.(ya?ml|json)$/i, "");
}
