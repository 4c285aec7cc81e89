import { compareExperiments as compare, type ExperimentComparison } from "@/server/experiments/compare-experiments";
import type { Db } from "@/server/persistence/db";
import { invalidInput } from "../errors";
import { experimentHeader, type ExperimentHeader } from "./get-experiment";
import { sampleFactsOf } from "./sample-facts-of";

export interface ExperimentComparisonView extends ExperimentComparison {
  readonly baselineExperiment: ExperimentHeader;
  readonly candidateExperiment: ExperimentHeader;
}

/**
 * Two experiments over the same dataset (any versions of it: cases are matched by key), the
 * baseline first: per-case changes, deltas and whether each exceeds noise.
 * @throws ServiceError NOT_FOUND; INVALID_INPUT when the datasets differ.
 */
export async function compareExperimentsById(db: Db, input: { baselineId: string; candidateId: string }): Promise<ExperimentComparisonView> {
  const [baseline, candidate] = await Promise.all([experimentHeader(db, input.baselineId), experimentHeader(db, input.candidateId)]);
  if (baseline.dataset.id !== candidate.dataset.id) {
    throw invalidInput("candidateId", `experiments over different datasets cannot be compared ("${baseline.dataset.name}" and "${candidate.dataset.name}")`);
  }
  const [a, b] = await Promise.all([sampleFactsOf(db, baseline.id), sampleFactsOf(db, candidate.id)]);
  return { ...compare({ samples: a, k: baseline.k }, { samples: b, k: candidate.k }), baselineExperiment: baseline, candidateExperiment: candidate };
}
