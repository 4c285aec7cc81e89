import { createHash } from "node:crypto";

/**
 * Immutable generated output (001 `Artifact`). `version` is the attempt number within its step,
 * starting at 1; `parentId` points at the attempt it refines, so a step's attempts form a chain.
 */
export interface Artifact {
  readonly id: string;
  readonly content: string;
  readonly version: number;
  readonly parentId: string | null;
  readonly contentHash: string;
}

/** SHA-256 of the content, hex encoded: what a reviewer's decision is pinned to. */
export function hashContent(content: string): string {
  return createHash("sha256").update(content, "utf8").digest("hex");
}

export function createArtifact(fields: {
  id: string;
  content: string;
  version: number;
  parentId: string | null;
}): Artifact {
  return Object.freeze({ ...fields, contentHash: hashContent(fields.content) });
}
