import type { EscalationStatus } from "@/server/durable/lifecycle";
import type { Db } from "@/server/persistence/db";
import { invalidInput, notFound } from "../errors";
import { appendCase } from "./append-case";
import type { CreatedDatasetVersion } from "./create-dataset-version";
import { variablesOfRun } from "./variables-of-run";

const DECIDED: ReadonlySet<string> = new Set<EscalationStatus>(["approved", "rejected"]);

export interface AddCaseFromEscalationInput {
  escalationId: string;
  datasetName: string;
  /** What the case's outputs are judged by; the reviewer's comment when absent. */
  rubric?: string;
}

/**
 * Adds a decided escalation's task to a dataset: its run's specification and variables, with
 * the reviewer's judgement (their comment, or the rubric given) as the case's rubric, so later
 * versions of the workflow are checked against what a person decided here.
 */
export async function addCaseFromEscalation(db: Db, actor: { email: string }, input: AddCaseFromEscalationInput): Promise<CreatedDatasetVersion & { key: string }> {
  const escalation = await db.escalation.findUnique({
    where: { id: input.escalationId },
    select: { id: true, status: true, comment: true, run: { select: { id: true, specification: true, contextValues: true } } },
  });
  if (!escalation) throw notFound("Escalation", input.escalationId);
  // Approved or rejected by a person; an expired or cancelled one carries no judgement.
  if (!DECIDED.has(escalation.status)) throw invalidInput("escalationId", `the escalation is ${escalation.status}; only an approved or rejected escalation can become a case`);
  const rubric = (input.rubric ?? escalation.comment ?? "").trim();
  const variables = variablesOfRun(escalation.run.contextValues);
  return appendCase(db, {
    datasetName: input.datasetName,
    keyBase: `escalation-${escalation.id.slice(0, 8)}`,
    item: {
      specification: escalation.run.specification,
      ...(variables ? { variables } : {}),
      ...(rubric ? { checks: { rubric } } : {}),
      sourceRunId: escalation.run.id,
      sourceEscalationId: escalation.id,
    },
    source: "escalation",
    createdBy: actor.email,
  });
}
