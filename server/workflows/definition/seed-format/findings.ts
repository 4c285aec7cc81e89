import type { DocumentPath } from "../../document";

/** What reading the seeds' shapes found, at paths relative to the workflow (before any move). */
export interface SeedFindings {
  readonly problems: { path: DocumentPath; message: string }[];
  readonly warnings: { path: DocumentPath; message: string }[];
  /** [where the checks will see a part, where the author wrote it]: longest prefix wins. */
  readonly moves: [DocumentPath, DocumentPath][];
}

export function newFindings(): SeedFindings {
  return { problems: [], warnings: [], moves: [] };
}

/** Maps a path the checks report back to where the author wrote it. */
export function sourcePathOf(moves: readonly (readonly [DocumentPath, DocumentPath])[]): (path: DocumentPath) => DocumentPath {
  return (path) => {
    let best: readonly [DocumentPath, DocumentPath] | undefined;
    for (const move of moves) {
      const [seen] = move;
      if (seen.length > path.length || (best && best[0].length >= seen.length)) continue;
      if (seen.every((part, i) => part === path[i])) best = move;
    }
    return best ? [...best[1], ...path.slice(best[0].length)] : path;
  };
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
