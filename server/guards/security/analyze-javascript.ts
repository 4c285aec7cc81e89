import ts from "typescript";
import { createAllowPolicy, type AllowOptions } from "./allow-policy";
import { RULE_REASONS, UNPARSEABLE, type Finding, type SecurityRule } from "./finding";
import type { Rule, RuleContext } from "./javascript/context";
import { parseSource, type ScriptLanguage } from "./javascript/parse-source";
import { createResolver } from "./javascript/resolver";
import { checkCodeEvaluation } from "./javascript/rules/code-evaluation";
import { checkMemoryExhaustion } from "./javascript/rules/memory-exhaustion";
import { checkModules } from "./javascript/rules/modules";
import { checkNonTermination } from "./javascript/rules/non-termination";
import { checkPrototypePollution } from "./javascript/rules/prototype-pollution";
import { checkRecursiveMerge } from "./javascript/rules/recursive-merge";
import { checkReferences } from "./javascript/rules/references";
import { checkTestTampering } from "./javascript/rules/test-tampering";
import { isTypeOnly } from "./javascript/syntax-positions";

export interface JavaScriptAnalysisOptions extends AllowOptions {
  /** TypeScript syntax is accepted only for "typescript". Defaults to "javascript". */
  language?: ScriptLanguage;
}

const RULES: readonly Rule[] = [
  checkModules,
  checkReferences,
  checkCodeEvaluation,
  checkPrototypePollution,
  checkNonTermination,
  checkMemoryExhaustion,
  checkTestTampering,
  checkRecursiveMerge,
];

/**
 * Static security analysis of JavaScript or TypeScript source. Returns the findings, or a single
 * finding with rule UNPARSEABLE when the code does not parse: the rules then do not run, because
 * a parser's error recovery can read code into what was meant as a string.
 */
export function analyzeJavaScript(source: string, options: JavaScriptAnalysisOptions = {}): Finding[] {
  const { sourceFile, checker, syntaxError } = parseSource(source, options.language ?? "javascript");
  if (syntaxError) {
    return [{ rule: UNPARSEABLE, construct: "syntax error", line: syntaxError.line, column: syntaxError.column, message: syntaxError.message }];
  }
  const allow = createAllowPolicy(options);
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const context: RuleContext = {
    sourceFile,
    allow,
    resolver: createResolver(sourceFile, checker, allow),
    report(node: ts.Node, rule: SecurityRule, key: string, construct = key) {
      if (allow.callAllowed(key)) return;
      const { line, character } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
      const id = `${construct}:${line}:${character}`;
      if (seen.has(id)) return;
      seen.add(id);
      findings.push({ rule, construct: printable(construct), line: line + 1, column: character + 1, message: RULE_REASONS[rule] });
    },
  };
  const visit = (node: ts.Node): void => {
    if (isTypeOnly(node)) return;
    for (const rule of RULES) rule(node, context);
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return findings;
}

const MAX_CONSTRUCT_LENGTH = 96;

/**
 * Constructs can carry names the code computed (`assert["\n…"] = …`): control characters are
 * escaped, so a finding stays one feedback line, and the length is capped.
 */
function printable(construct: string): string {
  // eslint-disable-next-line no-control-regex
  const escaped = construct.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return escaped.length > MAX_CONSTRUCT_LENGTH ? `${escaped.slice(0, MAX_CONSTRUCT_LENGTH - 1)}…` : escaped;
}
