import { ArtifactExistsError, ArtifactNotFoundError, artifactRowOf, type ArtifactDag, type StoredArtifact } from "../engine";
import type { Db } from "./db";
import { artifactSelect, toStoredArtifact } from "./mappers";
import { isUniqueViolation } from "./prisma-errors";

/** The artifact DAG of one run, in the Artifact and ArtifactDependency tables. */
export class PrismaArtifactDag implements ArtifactDag {
  constructor(
    private readonly db: Db,
    private readonly runId: string,
  ) {}

  async store(entry: StoredArtifact): Promise<void> {
    const { dependencyIds, ...row } = artifactRowOf(entry);
    try {
      await this.db.artifact.create({
        data: {
          ...row,
          runId: this.runId,
          dependencies: { create: Object.entries(dependencyIds).map(([name, dependencyId]) => ({ name, dependencyId })) },
        },
        select: { id: true },
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ArtifactExistsError(row.id);
      throw error;
    }
  }

  async get(artifactId: string): Promise<StoredArtifact> {
    const row = await this.db.artifact.findFirst({ where: { id: artifactId, runId: this.runId }, select: artifactSelect });
    if (!row) throw new ArtifactNotFoundError(artifactId);
    return toStoredArtifact(row);
  }

  async provenance(artifactId: string): Promise<StoredArtifact[]> {
    // A chain is at most rmax + 1 long, so walking it is cheaper than a recursive CTE per provider.
    const chain: StoredArtifact[] = [];
    for (let id: string | null = artifactId; id !== null; ) {
      const entry = await this.get(id);
      chain.push(entry);
      id = entry.artifact.parentId;
    }
    return chain.reverse();
  }
}
