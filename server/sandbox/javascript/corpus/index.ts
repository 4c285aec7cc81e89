import { COMMONJS_CASES } from "./commonjs-cases";
import type { CorpusCase } from "./corpus-case";
import { ESM_CASES } from "./esm-cases";
import { TYPESCRIPT_CASES } from "./typescript-cases";

export type { CorpusCase } from "./corpus-case";

/** Realistic benign artifacts with their tests, in every style the sandbox accepts (see README.md). */
export const IDIOMATIC_CORPUS: readonly CorpusCase[] = [...COMMONJS_CASES, ...ESM_CASES, ...TYPESCRIPT_CASES];
