import { randomUUID } from "node:crypto";
import { withoutDelays, type Cassette } from "@/server/generators/replay/cassette";
import { readCaseChecks } from "@/server/experiments/case-checks";
import type { ModelSettingsEnv } from "@/server/models/load-from-prisma";
import type { Db } from "@/server/persistence/db";
import type { WorkflowDefinition } from "@/server/workflows/definition";
import { durableStoreFor } from "../durable-store-for";
import { conflict, invalidInput, notFound } from "../errors";
import { readBundledCassette } from "../examples/bundled-cassette";
import { readUploadedCassette } from "../runs/read-uploaded-cassette";
import { refuseUnconfiguredModels } from "../runs/run-model-check";
import { refuseMissingSubWorkflows } from "../runs/run-tool-check";
import { subWorkflowStepNames } from "../runs/sub-workflow-steps";
import { MAX_CONCURRENCY, MAX_K, MAX_SAMPLES } from "./experiment-limits";
import { pumpExperiment } from "./pump-experiment";

export interface CreateExperimentInput {
  readonly workflowId: string;
  /** The workflow version; the latest when absent. */
  readonly version?: number;
  readonly datasetId: string;
  /** The dataset version; the latest when absent. */
  readonly datasetVersion?: number;
  /** Samples per case. */
  readonly k: number;
  /** Runs in flight at most. */
  readonly concurrency: number;
  readonly name?: string;
  /** "replay" runs the workflow's bundled cassette; "configured" (default) the document's generators. */
  readonly generator?: "configured" | "replay";
  /** A cassette's JSON text, replayed instead of the bundled one (implies "replay"). */
  readonly cassette?: string;
  /** Replay without the cassette's pauses (delay_ms). */
  readonly noDelay?: boolean;
}

/**
 * Creates an experiment with all its samples (each case of the dataset version, k times) in one
 * transaction, then pumps it so its first runs start at once. Every case is checked first
 * (its variables against the workflow's context, its checks), so a bad case is named before
 * anything is stored.
 * @throws ServiceError NOT_FOUND, INVALID_INPUT naming the field or case, CONFLICT (archived), NOT_CONFIGURED (a model).
 */
export async function createExperiment(db: Db, input: CreateExperimentInput, createdBy: string, settings?: ModelSettingsEnv): Promise<{ id: string; samples: number }> {
  if (!Number.isInteger(input.k) || input.k < 1 || input.k > MAX_K) throw invalidInput("k", `must be a whole number from 1 to ${MAX_K}`);
  if (!Number.isInteger(input.concurrency) || input.concurrency < 1 || input.concurrency > MAX_CONCURRENCY) throw invalidInput("concurrency", `must be a whole number from 1 to ${MAX_CONCURRENCY}`);

  const workflow = await db.workflow.findUnique({ where: { id: input.workflowId }, select: { id: true, name: true, archivedAt: true } });
  if (!workflow) throw notFound("Workflow", input.workflowId);
  if (workflow.archivedAt) throw conflict(`workflow "${workflow.name}" is archived; restore it to run experiments`);
  const version = await db.workflowVersion.findFirst({
    where: { workflowId: workflow.id, ...(input.version !== undefined ? { version: input.version } : {}) },
    orderBy: { version: "desc" },
    select: { id: true, version: true, definition: true },
  });
  if (!version) throw notFound("Version", `${workflow.name} v${input.version ?? "latest"}`);
  const definition = version.definition as unknown as WorkflowDefinition;

  const dataset = await db.dataset.findUnique({ where: { id: input.datasetId }, select: { id: true, name: true } });
  if (!dataset) throw notFound("Dataset", input.datasetId);
  const datasetVersion = await db.datasetVersion.findFirst({
    where: { datasetId: dataset.id, ...(input.datasetVersion !== undefined ? { version: input.datasetVersion } : {}) },
    orderBy: { version: "desc" },
    select: { id: true, version: true },
  });
  if (!datasetVersion) throw notFound("Dataset version", `${dataset.name} v${input.datasetVersion ?? "latest"}`);
  const caseCount = await db.datasetCase.count({ where: { datasetVersionId: datasetVersion.id } });
  if (caseCount === 0) throw invalidInput("dataset", `${dataset.name} v${datasetVersion.version} has no cases`);
  if (caseCount * input.k > MAX_SAMPLES) throw invalidInput("k", `${caseCount} cases × ${input.k} samples is more than ${MAX_SAMPLES} runs; lower k or split the dataset`);
  const cases = await db.datasetCase.findMany({ where: { datasetVersionId: datasetVersion.id }, orderBy: { position: "asc" }, select: { id: true, key: true, specification: true, variables: true, checks: true } });
  for (const item of cases) checkCase(item, definition, workflow.name);

  const generatorOverride = await overrideOf(db, input, definition, workflow.name);
  await refuseUnconfiguredModels(db, version.id, generatorOverride, settings);
  await refuseMissingSubWorkflows(db, version.id, generatorOverride);

  const id = randomUUID();
  const name = input.name?.trim() || `${workflow.name} v${version.version} on ${dataset.name} v${datasetVersion.version} (k=${input.k})`;
  const samples = cases.flatMap((item) => Array.from({ length: input.k }, (_, index) => ({ id: randomUUID(), experimentId: id, caseId: item.id, sample: index + 1 })));
  await db.$transaction([
    db.experiment.create({
      data: { id, name: name.slice(0, 200), workflowVersionId: version.id, datasetVersionId: datasetVersion.id, k: input.k, concurrency: input.concurrency, createdBy, generatorOverride: generatorOverride === undefined ? undefined : (generatorOverride as object) },
    }),
    db.experimentSample.createMany({ data: samples }),
  ]);
  await pumpExperiment(durableStoreFor(db), id);
  return { id, samples: samples.length };
}

type StoredCase = { key: string; specification: string; variables: unknown; checks: unknown };

/** A case the workflow can run: a specification, declared variables of the right type, well-formed checks. */
function checkCase(item: StoredCase, definition: WorkflowDefinition, workflowName: string): void {
  const where = `case "${item.key}"`;
  if (item.specification.trim() === "") throw invalidInput(`${where}.specification`, "must not be empty");
  const variables = item.variables ?? {};
  if (typeof variables !== "object" || Array.isArray(variables)) throw invalidInput(`${where}.variables`, "must be an object of name: value");
  for (const [name, value] of Object.entries(variables as Record<string, unknown>)) {
    if (!Object.hasOwn(definition.context ?? {}, name)) {
      const declared = Object.keys(definition.context ?? {});
      throw invalidInput(`${where}.variables.${name}`, `not a context variable of "${workflowName}" (declared: ${declared.length > 0 ? declared.join(", ") : "none"})`);
    }
    const expected = typeof definition.context[name];
    if (typeof value !== expected) throw invalidInput(`${where}.variables.${name}`, `must be a ${expected === "string" ? "text" : expected}, like its default`);
  }
  const checks = readCaseChecks(item.checks);
  if (!checks.ok) throw invalidInput(where, checks.problem);
}

async function overrideOf(db: Db, input: CreateExperimentInput, definition: WorkflowDefinition, workflowName: string): Promise<unknown> {
  let cassette: Cassette | undefined;
  if (input.cassette !== undefined) {
    if (input.generator === "configured") throw invalidInput("cassette", 'replays with the replay generator only; choose "replay" or leave the cassette out');
    cassette = readUploadedCassette(input.cassette, definition, await subWorkflowStepNames(db, definition));
  } else if (input.generator === "replay") {
    cassette = readBundledCassette(workflowName) ?? undefined;
    if (!cassette) throw invalidInput("generator", `workflow "${workflowName}" has no bundled replay cassette; upload one or use the configured model`);
  }
  if (!cassette) return undefined;
  return { kind: "replay", cassette: input.noDelay ? withoutDelays(cassette) : cassette };
}
