import { ArtifactExistsError, ArtifactNotFoundError } from "../errors";
import type { ArtifactDag, StoredArtifact } from "../ports/artifact-dag";

/** ArtifactDag kept in a Map (001 `InMemoryArtifactDAG`): for tests and for dry runs. */
export class InMemoryArtifactDag implements ArtifactDag {
  readonly #entries = new Map<string, StoredArtifact>();

  async store(entry: StoredArtifact): Promise<void> {
    if (this.#entries.has(entry.artifact.id)) throw new ArtifactExistsError(entry.artifact.id);
    this.#entries.set(entry.artifact.id, entry);
  }

  async get(artifactId: string): Promise<StoredArtifact> {
    const entry = this.#entries.get(artifactId);
    if (!entry) throw new ArtifactNotFoundError(artifactId);
    return entry;
  }

  async provenance(artifactId: string): Promise<StoredArtifact[]> {
    const chain: StoredArtifact[] = [];
    for (let id: string | null = artifactId; id !== null; ) {
      const entry = await this.get(id);
      chain.push(entry);
      id = entry.artifact.parentId;
    }
    return chain.reverse();
  }

  /** Every stored attempt in insertion order. */
  all(): StoredArtifact[] {
    return [...this.#entries.values()];
  }
}
