/** A field path into a workflow document: mapping keys and sequence indexes. */
export type DocumentPath = readonly (string | number)[];

/** One thing wrong with a document, already phrased for a human. */
export interface DocumentProblem {
  /** Field path such as `workflow.steps[1].name`, or `document` for the whole text. */
  path: string;
  /** 1-based, present whenever the problem has a place in the source. */
  line?: number;
  column?: number;
  message: string;
}

export interface SourcePosition {
  line: number;
  column: number;
}

export type DocumentFormat = "yaml" | "json";

export interface LoadOptions {
  fileName?: string;
  format?: DocumentFormat | "auto";
}

export type LoadResult =
  | { ok: true; value: unknown; locate(path: DocumentPath): SourcePosition | undefined }
  | { ok: false; problems: DocumentProblem[] };
