import { readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import { datasetNameProblem } from "@/server/datasets/dataset-name";
import { parseDatasetFile } from "@/server/datasets/parse-dataset-file";
import type { Db } from "@/server/persistence/db";
import { createDatasetVersion } from "@/server/services/datasets/create-dataset-version";
import { latestVersionByName } from "@/server/services/datasets/latest-version";
import { EvalInputError } from "./eval-input-error";

/** A file bigger than this is not read (the parser's own limit is lower; this only bounds the read). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

export interface ResolvedDataset {
  readonly datasetId: string;
  readonly name: string;
  readonly version: number;
  /** Whether this eval stored the file as a new version. */
  readonly stored: boolean;
}

/**
 * `--dataset FILE|NAME`: a file is parsed (JSONL, CSV or YAML; every mistake named by line and
 * field) and stored as the next version of the dataset named after it, unless its newest version
 * holds the same cases already (CI runs the same file again and again); a name is a stored dataset.
 */
export async function resolveDataset(db: Db, argument: string, options: { name?: string; version?: number; createdBy: string }): Promise<ResolvedDataset> {
  if (isFile(argument)) {
    if (options.version !== undefined) throw new EvalInputError("--dataset-version: applies to a stored dataset named by --dataset, not to a file (a file becomes the newest version)");
    const size = statSync(argument).size;
    if (size > MAX_FILE_BYTES) throw new EvalInputError(`--dataset ${argument}: is ${size} bytes; the limit is ${MAX_FILE_BYTES}`);
    const parsed = parseDatasetFile(basename(argument), readFileSync(argument, "utf8"));
    if (!parsed.ok) throw new EvalInputError(parsed.errors.map((error) => `${argument}:${error.line}: ${error.field}: ${error.message}`).join("\n"));
    const name = (options.name ?? basename(argument).replace(/\.(jsonl|csv|ya?ml)$/i, "")).trim();
    const problem = datasetNameProblem(name);
    if (problem) throw new EvalInputError(`--dataset-name "${name}": ${problem} (name the dataset with --dataset-name)`);
    const latest = await latestVersionByName(db, name);
    if (latest && sameCases(latest.cases, parsed.cases)) {
      const dataset = await db.dataset.findUniqueOrThrow({ where: { name }, select: { id: true } });
      return { datasetId: dataset.id, name, version: latest.version, stored: false };
    }
    const created = await createDatasetVersion(db, { name, cases: parsed.cases, source: "upload", createdBy: options.createdBy });
    return { datasetId: created.datasetId, name, version: created.version, stored: true };
  }
  const dataset = await db.dataset.findUnique({ where: { name: argument.trim() }, select: { id: true, name: true } });
  if (!dataset) throw new EvalInputError(`--dataset "${argument}": no such file, and no stored dataset has that name`);
  const version = await db.datasetVersion.findFirst({ where: { datasetId: dataset.id, ...(options.version !== undefined ? { version: options.version } : {}) }, orderBy: { version: "desc" }, select: { version: true } });
  if (!version) throw new EvalInputError(`--dataset-version ${options.version}: dataset "${dataset.name}" has no such version`);
  return { datasetId: dataset.id, name: dataset.name, version: version.version, stored: false };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

type Comparable = { key: string; specification: string; variables?: unknown; checks?: unknown };

function sameCases(stored: readonly Comparable[], parsed: readonly Comparable[]): boolean {
  const shape = (item: Comparable) => JSON.stringify([item.key, item.specification, sorted(item.variables ?? null), sorted(item.checks ?? null)]);
  return stored.length === parsed.length && stored.every((item, index) => shape(item) === shape(parsed[index]!));
}

/** Objects with their keys in order, so a stored JSON column and a parsed file compare equal. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted((value as Record<string, unknown>)[key])]));
}
