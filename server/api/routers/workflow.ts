import { exampleAsNewWorkflow, listExamples } from "@/server/services/examples/example-as-new-workflow";
import { exportWorkflowDefinition } from "@/server/services/workflows/export-definition";
import { getWorkflow } from "@/server/services/workflows/get-workflow";
import { listWorkflowPage, listWorkflows } from "@/server/services/workflows/list-workflows";
import { saveWorkflowDocument } from "@/server/services/workflows/save-workflow-document";
import { checkWorkflowDocument } from "@/server/services/workflows/check-document";
import { listWorkflowVersions } from "@/server/services/workflows/list-versions";
import { renameWorkflow } from "@/server/services/workflows/rename-workflow";
import { setWorkflowArchived } from "@/server/services/workflows/archive-workflow";
import {
  archiveWorkflowInput,
  checkDocumentInput,
  exportWorkflowInput,
  fromExampleInput,
  getWorkflowInput,
  listWorkflowPageInput,
  listWorkflowsInput,
  renameWorkflowInput,
  saveWorkflowInput,
  versionsInput,
} from "../schemas/workflow";
import { createTRPCRouter, permittedProcedure, viewerProcedure } from "../trpc";

/** Validates and saves a workflow document: version 1, a new version, or the unchanged latest. */
const save = permittedProcedure("save_workflow").input(saveWorkflowInput).mutation(({ ctx, input }) => saveWorkflowDocument(ctx.db, input, ctx.actor));

export const workflowRouter = createTRPCRouter({
  list: viewerProcedure.input(listWorkflowsInput).query(({ ctx, input }) => listWorkflows(ctx.db, input)),
  listPage: viewerProcedure.input(listWorkflowPageInput).query(({ ctx, input }) => listWorkflowPage(ctx.db, input)),
  save,
  // The name clients and tests have used since before versions: the same procedure as save.
  create: save,
  get: viewerProcedure.input(getWorkflowInput).query(({ ctx, input }) => getWorkflow(ctx.db, input.id !== undefined ? { id: input.id } : { name: input.name ?? "" })),
  /** The editor's live check: problems with their places, and the machine to preview. */
  check: viewerProcedure.input(checkDocumentInput).query(({ input }) => checkWorkflowDocument(input.document, input.name)),
  /** A new name, carried into a new version (the document names the workflow); runs keep theirs. */
  rename: permittedProcedure("save_workflow").input(renameWorkflowInput).mutation(({ ctx, input }) => renameWorkflow(ctx.db, input, ctx.actor)),
  /** Archived: hidden from the default list and not runnable; versions and runs are kept. */
  setArchived: permittedProcedure("save_workflow").input(archiveWorkflowInput).mutation(({ ctx, input }) => setWorkflowArchived(ctx.db, input, ctx.actor)),
  versions: viewerProcedure.input(versionsInput).query(({ ctx, input }) => listWorkflowVersions(ctx.db, input.name)),
  export: viewerProcedure.input(exportWorkflowInput).query(({ ctx, input }) => exportWorkflowDefinition(ctx.db, input.name, input.version)),
  /** The bundled examples a new workflow can start from. */
  examples: viewerProcedure.query(() => listExamples()),
  /** A bundled example's document under a new name; nothing is stored until it is saved. */
  fromExample: viewerProcedure.input(fromExampleInput).query(({ input }) => exampleAsNewWorkflow(input.example, input.name)),
});
