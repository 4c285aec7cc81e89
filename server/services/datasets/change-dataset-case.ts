import type { ParsedCase } from "@/server/datasets/types";
import type { Db } from "@/server/persistence/db";
import { conflict, invalidInput, notFound } from "../errors";
import { createDatasetVersion, type CreatedDatasetVersion, type VersionCase } from "./create-dataset-version";
import { CASE_ROW_SELECT, toVersionCase } from "./stored-case";

/** One edit by hand: add a case, replace the case with `key`, or remove it. */
export type CaseChange = { kind: "add"; case: ParsedCase } | { kind: "update"; key: string; case: ParsedCase } | { kind: "remove"; key: string };

export interface ChangeDatasetCaseInput {
  datasetId: string;
  /** The version the edit was made on: the change is refused when a newer one exists. */
  baseVersion: number;
  change: CaseChange;
}

/**
 * Applies one edit to a version's cases and stores the result as the next version; the version
 * edited stays as it was. Refused with CONFLICT when someone else made a version meanwhile, so
 * an edit never silently undoes theirs.
 */
export async function changeDatasetCase(db: Db, actor: { email: string }, input: ChangeDatasetCaseInput): Promise<CreatedDatasetVersion> {
  const dataset = await db.dataset.findUnique({ where: { id: input.datasetId }, select: { name: true } });
  if (!dataset) throw notFound("Dataset", input.datasetId);
  const base = await db.datasetVersion.findUnique({
    where: { datasetId_version: { datasetId: input.datasetId, version: input.baseVersion } },
    select: { cases: { orderBy: { position: "asc" }, select: CASE_ROW_SELECT } },
  });
  if (!base) throw notFound("Version", `${dataset.name} v${input.baseVersion}`);
  const cases = applyChange(base.cases.map(toVersionCase), input.change);
  return createDatasetVersion(db, { name: dataset.name, cases, source: "manual", createdBy: actor.email, expectedVersion: input.baseVersion + 1 });
}

function applyChange(cases: VersionCase[], change: CaseChange): VersionCase[] {
  if (change.kind === "add") {
    if (cases.some((item) => item.key === change.case.key)) throw conflict(`case.key: the dataset already has a case "${change.case.key}"`);
    return [...cases, change.case];
  }
  const index = cases.findIndex((item) => item.key === change.key);
  if (index === -1) throw invalidInput("key", `the version has no case "${change.key}"`);
  if (change.kind === "remove") return cases.filter((_, i) => i !== index);
  if (change.case.key !== change.key && cases.some((item) => item.key === change.case.key)) throw conflict(`case.key: the dataset already has a case "${change.case.key}"`);
  // An edited case still came from its run or escalation: the sources stay.
  return cases.map((item, i) => (i === index ? { ...change.case, ...sources(item) } : item));
}

function sources(item: VersionCase): Pick<VersionCase, "sourceRunId" | "sourceEscalationId"> {
  return { ...(item.sourceRunId ? { sourceRunId: item.sourceRunId } : {}), ...(item.sourceEscalationId ? { sourceEscalationId: item.sourceEscalationId } : {}) };
}
