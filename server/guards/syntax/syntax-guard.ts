import type { Guard } from "../../engine";
import type { GuardLanguage } from "../language";
import { checkJavaScriptSyntax } from "./check-javascript-syntax";
import { checkPythonSyntax } from "./check-python-syntax";

const PYTHON_CHECK_TIMEOUT_MS = 10_000;

/** 001 SyntaxGuard for three languages. No dependencies needed. */
export function createSyntaxGuard(language: GuardLanguage, pythonExecutable?: string): Guard {
  return {
    async validate(artifact) {
      return language === "python"
        ? checkPythonSyntax(artifact.content, { timeoutMs: PYTHON_CHECK_TIMEOUT_MS, pythonExecutable })
        : checkJavaScriptSyntax(artifact.content, language);
    },
  };
}
