import { addCaseFromEscalation } from "@/server/services/datasets/add-case-from-escalation";
import { addCaseFromRun } from "@/server/services/datasets/add-case-from-run";
import { changeDatasetCase } from "@/server/services/datasets/change-dataset-case";
import { getDataset } from "@/server/services/datasets/get-dataset";
import { listDatasets } from "@/server/services/datasets/list-datasets";
import { uploadDataset } from "@/server/services/datasets/upload-dataset";
import { addCaseFromEscalationInput, addCaseFromRunInput, changeDatasetCaseInput, getDatasetInput, listDatasetsInput, uploadDatasetInput } from "../schemas/datasets";
import { createTRPCRouter, permittedProcedure, viewerProcedure } from "../trpc";

/** Viewers read datasets; changing one (which always adds a version) needs edit_dataset. */
export const datasetsRouter = createTRPCRouter({
  list: viewerProcedure.input(listDatasetsInput).query(({ ctx, input }) => listDatasets(ctx.db, input ?? {})),
  get: viewerProcedure.input(getDatasetInput).query(({ ctx, input }) => getDataset(ctx.db, input)),
  /** A file with mistakes stores nothing and returns them ({ ok: false, errors }) for the page to list. */
  upload: permittedProcedure("edit_dataset").input(uploadDatasetInput).mutation(({ ctx, input }) => uploadDataset(ctx.db, ctx.actor, input)),
  changeCase: permittedProcedure("edit_dataset").input(changeDatasetCaseInput).mutation(({ ctx, input }) => changeDatasetCase(ctx.db, ctx.actor, input)),
  addFromRun: permittedProcedure("edit_dataset").input(addCaseFromRunInput).mutation(({ ctx, input }) => addCaseFromRun(ctx.db, ctx.actor, input)),
  addFromEscalation: permittedProcedure("edit_dataset").input(addCaseFromEscalationInput).mutation(({ ctx, input }) => addCaseFromEscalation(ctx.db, ctx.actor, input)),
});
