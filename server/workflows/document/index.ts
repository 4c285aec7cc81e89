export { loadWorkflowDocument } from "./load";
export { formatFindings, formatProblem, formatWarning, WARNING_PREFIX } from "./format-problem";
export { formatPath } from "./path";
export { toYaml } from "./to-yaml";
export { MAX_ALIASES, MAX_DEPTH, MAX_DOCUMENT_BYTES, MAX_NODES, MAX_PROBLEMS } from "./limits";
export type { DocumentFormat, DocumentPath, DocumentProblem, LoadOptions, LoadResult, SourcePosition } from "./types";
