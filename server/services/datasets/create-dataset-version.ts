import { randomUUID } from "node:crypto";
import { checkCases } from "@/server/datasets/check-cases";
import { datasetNameProblem } from "@/server/datasets/dataset-name";
import { DATASET_LIMITS } from "@/server/datasets/limits";
import { unstorableText } from "@/server/datasets/text-rules";
import { DATASET_VERSION_SOURCES, type DatasetVersionSource, type ParsedCase } from "@/server/datasets/types";
import type { Db, Prisma } from "@/server/persistence/db";
import { conflict, invalidInput, ServiceError } from "../errors";
import { isUniqueConstraintViolation } from "../prisma-errors";

/** A case and, when it was copied from one, the run or escalation it came from. */
export type VersionCase = ParsedCase & { sourceRunId?: string; sourceEscalationId?: string };

export interface CreateDatasetVersionInput {
  name: string;
  description?: string;
  cases: readonly VersionCase[];
  source: DatasetVersionSource;
  /** Who made the change (an email, as decisions name people). */
  createdBy: string;
  /**
   * For a change made to the version before it (an edit): the version number this one must get.
   * When another change took it first, the call fails with CONFLICT instead of retrying, so an
   * edit never silently drops someone else's.
   */
  expectedVersion?: number;
}

export interface CreatedDatasetVersion {
  datasetId: string;
  versionId: string;
  version: number;
}

/** Concurrent writers each lose at most once per winner; this bounds the loop, not honest use. */
const MAX_ATTEMPTS = 50;

/**
 * Stores `cases` as the next version of the dataset named `name`, creating the dataset when it
 * does not exist. Versions are immutable: every call adds one. Safe under concurrent calls on
 * SQLite and PostgreSQL without an interactive transaction: the unique indexes on Dataset.name
 * and (datasetId, version) decide who wins, and a loser reads the new maximum and tries again.
 * The version and its cases are one nested create, so no version is ever seen without its cases.
 */
export async function createDatasetVersion(db: Db, input: CreateDatasetVersionInput): Promise<CreatedDatasetVersion> {
  const name = input.name.trim();
  const nameProblem = datasetNameProblem(name);
  if (nameProblem) throw invalidInput("name", nameProblem);
  const description = input.description?.trim();
  if (description !== undefined) {
    const problem = description.length > DATASET_LIMITS.descriptionChars ? `is ${description.length} characters; the limit is ${DATASET_LIMITS.descriptionChars}` : unstorableText(description);
    if (problem) throw invalidInput("description", problem);
  }
  const createdBy = input.createdBy.trim();
  if (createdBy === "" || createdBy.length > 320 || unstorableText(createdBy)) throw invalidInput("createdBy", "must name who made the change (at most 320 characters)");
  if (!(DATASET_VERSION_SOURCES as readonly string[]).includes(input.source)) throw invalidInput("source", `must be one of ${DATASET_VERSION_SOURCES.join(", ")}`);
  const checked = checkCases(input.cases.map(({ sourceRunId: _run, sourceEscalationId: _escalation, ...rest }) => rest));
  if (!checked.ok) throw new ServiceError("INVALID_INPUT", checked.problems.join("; "));
  const rows = checked.cases.map((item, position) => caseRow(item, position, input.cases[position]!));

  const datasetId = await findOrCreateDataset(db, name, description);
  for (let attempt = 1; ; attempt++) {
    const latest = await db.datasetVersion.aggregate({ where: { datasetId }, _max: { version: true } });
    const version = (latest._max.version ?? 0) + 1;
    if (input.expectedVersion !== undefined && version !== input.expectedVersion) throw changedMeanwhile(name, version - 1);
    const versionId = randomUUID();
    try {
      await db.datasetVersion.create({
        data: { id: versionId, datasetId, version, source: input.source, createdBy, cases: { createMany: { data: rows } } },
        select: { id: true },
      });
    } catch (error) {
      // Cases are checked unique above, so a clash here is another writer taking this number.
      if (!isUniqueConstraintViolation(error) || attempt >= MAX_ATTEMPTS) throw error;
      if (input.expectedVersion !== undefined) throw changedMeanwhile(name, version);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
      continue;
    }
    await db.dataset.update({ where: { id: datasetId }, data: { updatedAt: new Date(), ...(description !== undefined ? { description } : {}) } });
    return { datasetId, versionId, version };
  }
}

function changedMeanwhile(name: string, latest: number): ServiceError {
  return conflict(`dataset "${name}" changed meanwhile (it is at version ${latest} now); reload it and make the change again`);
}

async function findOrCreateDataset(db: Db, name: string, description: string | undefined): Promise<string> {
  const existing = await db.dataset.findUnique({ where: { name }, select: { id: true } });
  if (existing) return existing.id;
  try {
    const created = await db.dataset.create({ data: { id: randomUUID(), name, description: description ?? "" }, select: { id: true } });
    return created.id;
  } catch (error) {
    // Another call created it first; its row is the dataset.
    if (!isUniqueConstraintViolation(error)) throw error;
    const winner = await db.dataset.findUnique({ where: { name }, select: { id: true } });
    if (!winner) throw error;
    return winner.id;
  }
}

function caseRow(item: ParsedCase, position: number, source: VersionCase): Prisma.DatasetCaseCreateManyDatasetVersionInput {
  return {
    id: randomUUID(),
    position,
    key: item.key,
    specification: item.specification,
    ...(item.variables ? { variables: item.variables } : {}),
    ...(item.checks ? { checks: item.checks as Prisma.InputJsonObject } : {}),
    ...(source.sourceRunId ? { sourceRunId: source.sourceRunId } : {}),
    ...(source.sourceEscalationId ? { sourceEscalationId: source.sourceEscalationId } : {}),
  };
}
