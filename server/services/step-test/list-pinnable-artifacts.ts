import { dependencyName } from "@/server/engine";
import type { Db, Prisma } from "@/server/persistence/db";
import { STEP_TEST_LIMITS } from "./step-test-limits";

const pinnableSelect = {
  id: true,
  runId: true,
  attempt: true,
  passed: true,
  fatal: true,
  content: true,
  createdAt: true,
  run: { select: { workflowVersion: { select: { version: true } } } },
} satisfies Prisma.ArtifactSelect;

export interface PinnableArtifact {
  readonly id: string;
  readonly runId: string;
  readonly workflowVersion: number | null;
  readonly attempt: number;
  readonly verdict: "pass" | "fail" | "fatal";
  readonly createdAt: Date;
  /** Null when the artifact is larger than a step test accepts (it can still be read on its run's page). */
  readonly content: string | null;
}

export interface PinnableDependency {
  readonly guardId: string;
  /** The name the step's guard and prompt see it under ("test" for g_test). */
  readonly name: string;
  readonly artifacts: readonly PinnableArtifact[];
}

/**
 * For each guard id a step depends on, the newest artifacts earlier runs of the workflow produced
 * for it (passing ones first, as a run would hand over only those), so a step test can pin one
 * instead of typing it.
 */
export async function listPinnableArtifacts(db: Db, input: { readonly workflow: string; readonly guardIds: readonly string[] }): Promise<PinnableDependency[]> {
  const guardIds = [...new Set(input.guardIds)];
  return Promise.all(
    guardIds.map(async (guardId) => {
      const rows = await db.artifact.findMany({
        select: pinnableSelect,
        where: { guardId, run: { workflowVersion: { workflow: { name: input.workflow } } } },
        orderBy: [{ passed: "desc" }, { createdAt: "desc" }, { id: "desc" }],
        take: STEP_TEST_LIMITS.pinnableArtifacts,
      });
      return {
        guardId,
        name: dependencyName(guardId),
        artifacts: rows.map((row) => ({
          id: row.id,
          runId: row.runId,
          workflowVersion: row.run.workflowVersion?.version ?? null,
          attempt: row.attempt,
          verdict: row.passed ? ("pass" as const) : row.fatal ? ("fatal" as const) : ("fail" as const),
          createdAt: row.createdAt,
          content: row.content.length <= STEP_TEST_LIMITS.dependencyChars ? row.content : null,
        })),
      };
    }),
  );
}
