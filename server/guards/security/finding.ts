/**
 * One thing the security analysers found. `construct` names it the way the feedback shows it
 * ("os.system", `require("fs")`); `line` is 1-based, `column` 1-based when known.
 */
export interface Finding {
  rule: string;
  construct: string;
  line: number;
  column?: number;
  message: string;
}

/** The categories a finding's `rule` takes, most severe first within the ordering below. */
export const SECURITY_RULES = [
  "spawn-process",
  "eval-code",
  "obfuscation",
  "test-tampering",
  "builtin-module",
  "network",
  "filesystem",
  "prototype-pollution",
  "environment",
  "exit-process",
  "non-termination",
  "memory-exhaustion",
] as const;
export type SecurityRule = (typeof SECURITY_RULES)[number];

/**
 * Not a security finding: the analyser could not parse the code. The guard turns it into a
 * non-fatal failure, because code that was not analysed must not pass, but it is not proven hostile.
 */
export const UNPARSEABLE = "unparseable";

/** Why each rule matters; the finding's `message` starts with it. */
export const RULE_REASONS: Record<SecurityRule, string> = {
  "spawn-process": "starts processes or threads outside the sandboxed code",
  "eval-code": "evaluates strings as code, which hides what really runs",
  obfuscation: "reaches a capability through a computed or hidden name",
  "builtin-module": "loads a module that gives access outside the code itself",
  network: "opens network connections",
  filesystem: "reads or writes files",
  "prototype-pollution": "changes objects shared with all other code",
  environment: "reads or changes the process environment",
  "exit-process": "ends or signals the process",
  "test-tampering": "changes the assertion helpers the tests rely on, so a failing test could pass",
  "non-termination": "cannot end: nothing in the loop leaves it",
  "memory-exhaustion": "allocates more than 256 MiB at once, with a size fixed in the code",
};

const SEVERITY: Record<string, number> = {
  "spawn-process": 0,
  "eval-code": 0,
  obfuscation: 0,
  "test-tampering": 0,
  "builtin-module": 1,
  network: 1,
  filesystem: 1,
  "prototype-pollution": 1,
  environment: 2,
  "exit-process": 2,
  "non-termination": 2,
  "memory-exhaustion": 2,
};

/** Lower is more severe; unknown rules sort last. */
export function severityOf(rule: string): number {
  return SEVERITY[rule] ?? 3;
}

/** Most severe first, then in source order. */
export function compareFindings(a: Finding, b: Finding): number {
  return severityOf(a.rule) - severityOf(b.rule) || a.line - b.line || (a.column ?? 0) - (b.column ?? 0);
}
