import { caseResults, summarizeExperiment, type CaseResult, type ExperimentSummary } from "@/server/experiments/summarize-experiment";
import type { Db } from "@/server/persistence/db";
import { notFound } from "../errors";
import { sampleFactsOf } from "./sample-facts-of";

export interface ExperimentHeader {
  readonly id: string;
  readonly name: string;
  readonly status: string;
  readonly k: number;
  readonly concurrency: number;
  readonly createdBy: string;
  readonly replay: boolean;
  readonly createdAt: Date;
  readonly startedAt: Date | null;
  readonly finishedAt: Date | null;
  readonly workflow: { readonly id: string; readonly name: string; readonly version: number };
  readonly dataset: { readonly id: string; readonly name: string; readonly version: number };
}

export interface ExperimentDetail extends ExperimentHeader {
  /** Samples with an outcome, of all samples: the progress bar. */
  readonly progress: { readonly ended: number; readonly total: number; readonly inFlight: number };
  readonly summary: ExperimentSummary;
  readonly cases: readonly CaseResult[];
}

/** An experiment's header: what ran over what, and where it stands. */
export async function experimentHeader(db: Db, id: string): Promise<ExperimentHeader> {
  const experiment = await db.experiment.findUnique({
    where: { id },
    include: { datasetVersion: { select: { version: true, dataset: { select: { id: true, name: true } } } } },
  });
  if (!experiment) throw notFound("Experiment", id);
  const version = await db.workflowVersion.findUnique({ where: { id: experiment.workflowVersionId }, select: { version: true, workflow: { select: { id: true, name: true } } } });
  return {
    id: experiment.id,
    name: experiment.name,
    status: experiment.status,
    k: experiment.k,
    concurrency: experiment.concurrency,
    createdBy: experiment.createdBy,
    replay: experiment.generatorOverride !== null,
    createdAt: experiment.createdAt,
    startedAt: experiment.startedAt,
    finishedAt: experiment.finishedAt,
    workflow: { id: version?.workflow.id ?? "", name: version?.workflow.name ?? "(deleted workflow)", version: version?.version ?? 0 },
    dataset: { id: experiment.datasetVersion.dataset.id, name: experiment.datasetVersion.dataset.name, version: experiment.datasetVersion.version },
  };
}

/** The live page's data: header, progress, results so far, one row per case. */
export async function getExperiment(db: Db, id: string): Promise<ExperimentDetail> {
  const header = await experimentHeader(db, id);
  const facts = await sampleFactsOf(db, id);
  const ended = facts.filter((sample) => sample.outcome !== null).length;
  const inFlight = facts.filter((sample) => sample.runId !== null && sample.outcome === null).length;
  return { ...header, progress: { ended, total: facts.length, inFlight }, summary: summarizeExperiment(facts, header.k), cases: caseResults(facts) };
}
