import type { Db } from "@/server/persistence/db";
import { toYaml } from "@/server/workflows/document";
import { notFound } from "../errors";

type StoredStep = Record<string, unknown> & { type?: unknown };

/**
 * A normalised definition as a document: the normaliser gives every step `guards: []` and
 * `guard_artifact_deps: []`, which the format allows only on action_pair steps, so those empty
 * lists are left out of other steps (validation puts them back).
 */
export function definitionDocument(definition: unknown): unknown {
  if (typeof definition !== "object" || definition === null || !Array.isArray((definition as { steps?: unknown }).steps)) return definition;
  const steps = ((definition as { steps: unknown[] }).steps).map((step) => {
    if (typeof step !== "object" || step === null || (step as StoredStep).type === "action_pair") return step;
    const copy: StoredStep = { ...(step as StoredStep) };
    for (const key of ["guards", "guard_artifact_deps"]) {
      if (Array.isArray(copy[key]) && (copy[key] as unknown[]).length === 0) delete copy[key];
    }
    return copy;
  });
  return { ...definition, steps };
}

/**
 * The stored definition of a workflow version as a YAML document (`workflow:` at its root),
 * which `validateWorkflowDocument` reads back to the same definition. The latest version unless
 * `version` is given.
 * @throws ServiceError NOT_FOUND naming the workflow, or the workflow and the version.
 */
export async function exportWorkflowDefinition(db: Db, name: string, version?: number): Promise<string> {
  const workflow = await db.workflow.findUnique({ where: { name }, select: { id: true } });
  if (!workflow) throw notFound("Workflow", name);
  const stored = await db.workflowVersion.findFirst({
    where: { workflowId: workflow.id, ...(version === undefined ? {} : { version }) },
    orderBy: { version: "desc" },
    select: { definition: true },
  });
  if (!stored) throw notFound(`Version ${version ?? "(latest)"} of workflow`, name);
  return toYaml({ workflow: definitionDocument(stored.definition) });
}
