import { storedStepKind, type StoredArtifact } from "../../engine";
import type { SqlDialect } from "../../persistence/sql/sql-client";
import type { TurnSnapshot } from "../types";

/** The columns `snapshotColumns` selects. */
export type SnapshotRow = {
  specification: string;
  contextValues: unknown;
  generatorOverride: unknown;
  definition: unknown;
  lastSeq: number | null;
  keyed: unknown;
  artifacts: unknown;
  parentRunId: string | null;
  parentCallId: string | null;
  hasToolWaits: unknown;
  promptTokens: unknown;
  completionTokens: unknown;
  costUsd: unknown;
  budget: unknown;
};

/** The columns of a TurnSnapshot, selected from the run `r` and its version `v`; keyed entries aggregated into one JSON array. */
export function snapshotColumns(d: SqlDialect, r: string): string {
  const keyed =
    d.provider === "postgres"
      ? `(SELECT COALESCE(jsonb_agg(jsonb_build_array(l."callKey", l."payload")), '[]'::jsonb) FROM "LedgerEntry" l WHERE l."runId" = ${r}."id" AND l."callKey" IS NOT NULL)`
      : `(SELECT COALESCE(json_group_array(json_array(l."callKey", json(l."payload"))), '[]') FROM "LedgerEntry" l WHERE l."runId" = ${r}."id" AND l."callKey" IS NOT NULL)`;
  return `${r}."specification", ${r}."contextValues", ${r}."generatorOverride", v."definition", ${r}."parentRunId", ${r}."parentCallId",
      ${r}."promptTokens", ${r}."completionTokens", ${r}."costUsd", ${r}."budget",
      EXISTS (SELECT 1 FROM "ToolWait" w WHERE w."runId" = ${r}."id") AS "hasToolWaits",
      (SELECT MAX(l."seq") FROM "LedgerEntry" l WHERE l."runId" = ${r}."id") AS "lastSeq", ${keyed} AS "keyed",
      ${artifactsJson(d, `a."runId" = ${r}."id"`)} AS "artifacts"`;
}

/** The artifacts matching `where` (over alias `a`), with their dependencies, as one JSON array. */
export function artifactsJson(d: SqlDialect, where: string): string {
  return d.provider === "postgres"
    ? `(SELECT COALESCE(jsonb_agg(jsonb_build_array(a."id", a."content", a."attempt", a."parentId", a."contentHash", a."stepName", a."guardId", a."passed", a."fatal", a."feedback", a."language", a."stepKind",
         (SELECT COALESCE(jsonb_object_agg(d."name", d."dependencyId"), '{}'::jsonb) FROM "ArtifactDependency" d WHERE d."artifactId" = a."id"))), '[]'::jsonb) FROM "Artifact" a WHERE ${where})`
    : `(SELECT COALESCE(json_group_array(json_array(a."id", a."content", a."attempt", a."parentId", a."contentHash", a."stepName", a."guardId", a."passed", a."fatal", a."feedback", a."language", a."stepKind",
         json((SELECT COALESCE(json_group_object(d."name", d."dependencyId"), '{}') FROM "ArtifactDependency" d WHERE d."artifactId" = a."id")))), '[]') FROM "Artifact" a WHERE ${where})`;
}

/** The artifacts of an `artifactsJson` column. */
export function storedArtifacts(d: SqlDialect, json: unknown): StoredArtifact[] {
  type Tuple = [string, string, number, string | null, string, string, string, unknown, unknown, string, string | null, string, Record<string, string>];
  return (d.readJson(json) as Tuple[]).map(([id, content, attempt, parentId, contentHash, stepName, guardId, passed, fatal, feedback, language, stepKind, dependencyIds]) => ({
    artifact: Object.freeze({ id, content, version: attempt, parentId, contentHash }),
    stepName,
    stepKind: storedStepKind(stepKind),
    guardId,
    result: Object.freeze({ passed: Boolean(passed), fatal: Boolean(fatal), feedback }),
    dependencyIds,
    language,
  }));
}

export function snapshotOf(d: SqlDialect, runId: string, row: SnapshotRow): TurnSnapshot {
  return {
    runId,
    specification: row.specification,
    definition: d.readJson(row.definition),
    contextValues: (d.readJson(row.contextValues) as Record<string, boolean | number | string> | null) ?? {},
    generatorOverride: d.readJson(row.generatorOverride) ?? undefined,
    keyed: new Map(d.readJson(row.keyed) as [string, Record<string, unknown>][]),
    lastSeq: Number(row.lastSeq ?? 0),
    artifacts: storedArtifacts(d, row.artifacts),
    parentRunId: row.parentRunId,
    parentCallId: row.parentCallId,
    hasToolWaits: Boolean(Number(row.hasToolWaits) || row.hasToolWaits === true),
    spent: { promptTokens: Number(row.promptTokens ?? 0), completionTokens: Number(row.completionTokens ?? 0), costUsd: Number(row.costUsd ?? 0) },
    budget: d.readJson(row.budget) ?? null,
  };
}
