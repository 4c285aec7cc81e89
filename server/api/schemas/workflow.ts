import { z } from "zod";
import { workflowNameSchema } from "@/server/workflows/definition/workflow-name";
import { listPageFields } from "./list-page";

// No length cap beyond the document format's: a name a document may carry must be usable here too.
const workflowName = z.string().trim().min(1, "must not be empty");

/**
 * A workflow document, as text or as an object; the service validates it like
 * `dualstate validate`. `name` is optional: the document names the workflow, and a `name`
 * given here must agree with it.
 */
export const saveWorkflowInput = z
  .strictObject({
    name: workflowName.optional(),
    /** The name of a document that gives none (004's agent.yaml): the editor sends the edited workflow's. */
    fallbackName: workflowName.optional(),
    /** YAML or JSON text, as a file would hold it. */
    document: z.string().optional(),
    // z.json() rather than z.unknown(): superjson can deliver Dates, Maps or BigInts, which are not JSON.
    definition: z.record(z.string(), z.json(), { error: "must be a JSON object" }).optional(),
  })
  .superRefine((input, ctx) => {
    if (input.document === undefined && input.definition === undefined) {
      ctx.addIssue({ code: "custom", path: ["document"], message: "give the workflow as document (YAML or JSON text) or as definition (an object)" });
    } else if (input.document !== undefined && input.definition !== undefined) {
      ctx.addIssue({ code: "custom", path: ["definition"], message: "give document or definition, not both" });
    }
  });

/** One workflow, by its name or its id. */
export const getWorkflowInput = z
  .strictObject({ name: workflowName.optional(), id: z.string().min(1, "must not be empty").optional() })
  .superRefine((input, ctx) => {
    if ((input.name === undefined) === (input.id === undefined)) ctx.addIssue({ code: "custom", path: ["name"], message: "give either name or id" });
  });

export const exportWorkflowInput = z.strictObject({
  name: workflowName,
  version: z.number().int("must be a whole number").min(1, "must be 1 or more").optional(),
});

/**
 * A workflow document being edited. The document format's own limit (1 MiB of UTF-8) is reported
 * by the validator as a problem at `document`; this cap only stops far larger bodies early.
 */
export const MAX_CHECKED_DOCUMENT_CHARACTERS = 2 * 1024 * 1024;
export const checkDocumentInput = z.strictObject({
  document: z.string().max(MAX_CHECKED_DOCUMENT_CHARACTERS, "must be at most 2 MiB (the document format allows 1 MiB)"),
  /** The edited workflow's name: a document that gives none (004's agent.yaml) takes it. */
  name: z.string().max(200, "must be at most 200 characters").optional(),
});

export const versionsInput = z.strictObject({ name: workflowName });

/** A new workflow named `name`, started from the bundled example `example`. */
export const fromExampleInput = z.strictObject({ example: workflowName, name: workflowNameSchema });

/** Archived workflows are left out unless asked for. */
export const listWorkflowsInput = z.strictObject({ includeArchived: z.boolean().optional() }).optional();

/** A stored workflow (any name it was stored under) and the name it takes, which must follow the name rule. */
export const renameWorkflowInput = z.strictObject({ name: workflowName, newName: workflowNameSchema });

export const archiveWorkflowInput = z.strictObject({ name: workflowName, archived: z.boolean() });

/** The overview's workflow list: search and a page (bounds in ./list-page.ts). */
export const listWorkflowPageInput = z.object({ ...listPageFields, includeArchived: z.boolean().optional() }).prefault({});
