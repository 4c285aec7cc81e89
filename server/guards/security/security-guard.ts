import { configurationErrorOf, failed, fatal, GuardUnavailableError, passed, type Guard, type GuardResult } from "../../engine";
import type { GuardLanguage } from "../language";
import type { AllowOptions } from "./allow-policy";
import { analyzeJavaScript } from "./analyze-javascript";
import { analyzePython } from "./analyze-python";
import { UNPARSEABLE, type Finding } from "./finding";
import { formatFindings } from "./format-feedback";

export interface SecurityGuardOptions extends AllowOptions {
  language: GuardLanguage;
  /** Python only: the interpreter that parses the code ("python3" on PATH by default). */
  pythonExecutable?: string;
  /** Python only: how long the analysis may take. */
  timeoutMs?: number;
}

/**
 * 000 §3.5 Fatal Escalation: static analysis of the artifact for code that reaches outside what
 * generated code may do (processes, eval, I/O modules, files, network, environment, exiting,
 * prototype pollution and obfuscated forms of these), and for what a reviewer must see although it
 * reaches nothing outside (loops that cannot end, memory bombs written as constants, tampering with
 * the assertion helpers, recursive merges that pollute prototypes). Any finding is ⊥_fatal with one feedback
 * line per construct, e.g. "Security: os.system forbidden (line 3)". Code that cannot be parsed
 * or analysed is a plain failure: it was not analysed, so it does not pass, but it is not proven
 * hostile either. No dependencies needed.
 */
export function createSecurityGuard(options: SecurityGuardOptions): Guard {
  const allow: AllowOptions = { allowModules: options.allowModules, allowCalls: options.allowCalls };
  return {
    async validate(artifact) {
      try {
        if (options.language === "python") {
          const result = await analyzePython(artifact.content, { ...allow, pythonExecutable: options.pythonExecutable, timeoutMs: options.timeoutMs });
          // No interpreter on this server is not the code's fault: the step stops with the reason.
          if ("unavailable" in result && result.interpreterMissing) throw new GuardUnavailableError(`Security: cannot analyse Python code on this server: ${result.unavailable}`);
          if ("unavailable" in result) return failed(`Security: could not analyse the Python code: ${result.unavailable}`);
          return verdict(result);
        }
        return verdict(analyzeJavaScript(artifact.content, { ...allow, language: options.language }));
      } catch (error) {
        if (configurationErrorOf(error)) throw error;
        // e.g. a stack overflow on absurdly nested code: not analysed, so not passed
        return failed(`Security: could not analyse the code: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}

function verdict(findings: readonly Finding[]): GuardResult {
  const unparseable = findings.find((finding) => finding.rule === UNPARSEABLE);
  if (unparseable) {
    const where = unparseable.line > 0 ? `line ${unparseable.line}: ` : "";
    return failed(`Security: could not parse the code (${where}${unparseable.message})`);
  }
  return findings.length === 0 ? passed() : fatal(formatFindings(findings));
}
