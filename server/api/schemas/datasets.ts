import { z } from "zod";
import { DATASET_LIMITS } from "@/server/datasets/limits";
import { CASE_TEST_LANGUAGES } from "@/server/datasets/types";
import { pageNumber, searchText } from "./list-page";

const id = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const datasetName = z.string().trim().min(1, "must not be empty").max(DATASET_LIMITS.datasetNameChars, `must be at most ${DATASET_LIMITS.datasetNameChars} characters`);

/**
 * A case as the edit form sends it. Shapes and lengths only: the service checks every rule the
 * file parser checks (keys, variable names, storable text), with the same messages.
 */
export const caseInput = z.strictObject({
  key: text(DATASET_LIMITS.keyChars),
  specification: text(DATASET_LIMITS.specificationChars),
  variables: z
    .record(z.string().max(DATASET_LIMITS.variableNameChars), z.union([z.string().max(DATASET_LIMITS.variableTextChars), z.number(), z.boolean()]))
    .refine((variables) => Object.keys(variables).length <= DATASET_LIMITS.variables, `may hold at most ${DATASET_LIMITS.variables} variables`)
    .optional(),
  checks: z
    .strictObject({
      tests: z.strictObject({ language: z.enum(CASE_TEST_LANGUAGES), code: text(DATASET_LIMITS.testCodeChars) }).optional(),
      rubric: text(DATASET_LIMITS.rubricChars).optional(),
    })
    .optional(),
});

export const listDatasetsInput = z.object({ search: searchText.optional() }).optional();

export const getDatasetInput = z.object({
  id,
  version: z.number().int().min(1).optional(),
  page: pageNumber.optional(),
  pageSize: z.number().int().min(1).max(100).optional(),
});

export const uploadDatasetInput = z.object({
  name: datasetName,
  description: text(DATASET_LIMITS.descriptionChars).optional(),
  fileName: z.string().trim().min(1, "must not be empty").max(255, "must be at most 255 characters"),
  // Characters never outnumber UTF-8 bytes; the parser checks the byte limit itself.
  text: text(DATASET_LIMITS.fileBytes),
});

export const changeDatasetCaseInput = z.object({
  datasetId: id,
  baseVersion: z.number().int().min(1),
  change: z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("add"), case: caseInput }),
    z.strictObject({ kind: z.literal("update"), key: text(DATASET_LIMITS.keyChars), case: caseInput }),
    z.strictObject({ kind: z.literal("remove"), key: text(DATASET_LIMITS.keyChars) }),
  ]),
});

export const addCaseFromRunInput = z.object({ runId: id, datasetName });
export const addCaseFromEscalationInput = z.object({ escalationId: id, datasetName, rubric: text(DATASET_LIMITS.rubricChars).optional() });
