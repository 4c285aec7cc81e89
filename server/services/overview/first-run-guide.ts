/**
 * The overview's first-run guide: what a new user has done of the short path "run an example,
 * watch it, review its escalation", read from the database (never from what the browser says).
 */
import type { Db } from "@/server/persistence/db";
import type { RunStatus } from "@/server/engine/run/run-record";
import { bundledCassettePath } from "../examples/bundled-cassette";

/**
 * The bundled example the guide runs: its cassette's first answer calls os.system, so the
 * security guard's verdict is fatal and the run waits for a person (examples/sandbox-escalation.yaml).
 */
export const GUIDE_EXAMPLE = "sandbox-escalation";

/** A run in these statuses has not shown its outcome yet: the live page is worth watching. */
const IN_PROGRESS: readonly RunStatus[] = ["queued", "dispatched", "running"];

export interface FirstRunGuideViewer {
  readonly email: string;
  /** May start runs (run.create): the reviewer role and above. */
  readonly mayStartRuns: boolean;
  /** May decide escalations. */
  readonly mayDecide: boolean;
}

export interface FirstRunGuide {
  /** The bundled example the guide runs, by name, whether or not the database holds it. */
  readonly exampleName: string;
  /** The example as stored, or null when it was deleted or has no version or no bundled cassette. */
  readonly example: { readonly workflowId: string; readonly name: string; readonly specification: string | null } | null;
  /** The example's newest run, whoever started it. */
  readonly run: { readonly id: string; readonly status: RunStatus } | null;
  /** That run's newest escalation. */
  readonly escalation: { readonly id: string; readonly status: string } | null;
  /** Whether the database holds any run at all: an overview with data shows the guide compactly. */
  readonly hasRuns: boolean;
  readonly steps: {
    /** The example has been run. */
    readonly ran: boolean;
    /** Its run has shown its outcome (it is no longer queued or running). */
    readonly watched: boolean;
    /**
     * The person has decided an escalation themselves. Never for a viewer, who cannot decide:
     * their guide stays, compact, until they hide it.
     */
    readonly reviewed: boolean;
  };
  readonly mayStartRuns: boolean;
  readonly mayDecide: boolean;
}

export async function readFirstRunGuide(db: Db, viewer: FirstRunGuideViewer): Promise<FirstRunGuide> {
  const [workflow, anyRun, decidedByViewer] = await Promise.all([
    db.workflow.findUnique({
      where: { name: GUIDE_EXAMPLE },
      select: { id: true, name: true, versions: { orderBy: { version: "desc" }, take: 1, select: { definition: true } } },
    }),
    db.run.findFirst({ select: { id: true } }),
    viewer.mayDecide ? db.escalation.findFirst({ where: { decidedBy: viewer.email, status: { in: ["approved", "rejected"] } }, select: { id: true } }) : null,
  ]);
  const latest = workflow?.versions[0];
  const example =
    workflow && latest && bundledCassettePath(workflow.name) !== null
      ? { workflowId: workflow.id, name: workflow.name, specification: specificationOf(latest.definition) }
      : null;

  const run = workflow
    ? await db.run.findFirst({
        where: { workflowVersion: { workflowId: workflow.id } },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        select: { id: true, status: true, escalations: { orderBy: { createdAt: "desc" }, take: 1, select: { id: true, status: true } } },
      })
    : null;
  const escalation = run?.escalations[0] ?? null;

  return {
    exampleName: GUIDE_EXAMPLE,
    example,
    run: run ? { id: run.id, status: run.status } : null,
    escalation,
    hasRuns: anyRun !== null,
    steps: {
      ran: run !== null,
      watched: run !== null && !IN_PROGRESS.includes(run.status),
      reviewed: decidedByViewer !== null,
    },
    mayStartRuns: viewer.mayStartRuns,
    mayDecide: viewer.mayDecide,
  };
}

/** The stored definition's own specification, if it declares one (the one-click run uses it). */
function specificationOf(definition: unknown): string | null {
  if (typeof definition !== "object" || definition === null) return null;
  const specification = (definition as { specification?: unknown }).specification;
  return typeof specification === "string" && specification.trim() !== "" ? specification : null;
}
