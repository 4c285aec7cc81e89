"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { fieldClass } from "@/components/ui/select";
import { DATASET_LIMITS } from "@/server/datasets/limits";
import { CASE_TEST_LANGUAGES, type CaseTestLanguage, type ParsedCase } from "@/server/datasets/types";
import { readVariablesText, variablesText } from "./variables-text";

/**
 * One case's fields: key, specification, variables (a JSON object), and the checks it adds (a
 * rubric, test code). The server checks every rule again; this only shapes the input.
 */
export function CaseForm({ initial, busy, error, onSubmit, onCancel }: { initial?: ParsedCase; busy: boolean; error: string | null; onSubmit: (item: ParsedCase) => void; onCancel: () => void }) {
  const [variables, setVariables] = useState(variablesText(initial?.variables));
  const [language, setLanguage] = useState<CaseTestLanguage | "">(initial?.checks?.tests?.language ?? "");
  const [problem, setProblem] = useState<string | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const read = readVariablesText(variables);
    if (!read.ok) return setProblem(`variables: ${read.problem}`);
    const code = String(form.get("code") ?? "");
    const rubric = String(form.get("rubric") ?? "").trim();
    if (code.trim() !== "" && language === "") return setProblem("tests: choose the language the test code is written in");
    setProblem(null);
    const checks: ParsedCase["checks"] = {
      ...(code.trim() !== "" && language !== "" ? { tests: { language, code } } : {}),
      ...(rubric ? { rubric } : {}),
    };
    onSubmit({
      key: String(form.get("key") ?? "").trim(),
      specification: String(form.get("specification") ?? ""),
      ...(read.variables ? { variables: read.variables } : {}),
      ...(Object.keys(checks).length > 0 ? { checks } : {}),
    });
  }

  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Case">
      <label className="flex flex-col gap-1 text-sm font-medium">
        Key
        <input name="key" required defaultValue={initial?.key ?? ""} maxLength={DATASET_LIMITS.keyChars} className={`${fieldClass} font-mono`} />
        <span className="text-xs font-normal text-slate-500">Letters, digits and . _ : / -. Experiments compare cases across versions by key.</span>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Specification
        <textarea name="specification" required rows={5} defaultValue={initial?.specification ?? ""} maxLength={DATASET_LIMITS.specificationChars} className={fieldClass} />
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Variables (JSON object, optional)
        <textarea name="variables" rows={2} value={variables} onChange={(event) => setVariables(event.target.value)} className={`${fieldClass} font-mono`} />
        <span className="text-xs font-normal text-slate-500">For example {'{"language": "python", "retries": 2}'}: text, numbers and true/false.</span>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Rubric (optional)
        <textarea name="rubric" rows={2} defaultValue={initial?.checks?.rubric ?? ""} maxLength={DATASET_LIMITS.rubricChars} className={fieldClass} />
      </label>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium">Test code (optional)</legend>
        <select aria-label="Test language" value={language} onChange={(event) => setLanguage(event.target.value as CaseTestLanguage | "")} className={fieldClass}>
          <option value="">no tests</option>
          {CASE_TEST_LANGUAGES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <textarea name="code" aria-label="Test code" rows={4} defaultValue={initial?.checks?.tests?.code ?? ""} maxLength={DATASET_LIMITS.testCodeChars} className={`${fieldClass} w-full font-mono`} />
      </fieldset>
      {(problem ?? error) && (
        <p role="alert" className="text-sm text-red-700">
          {problem ?? error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? "Saving…" : "Save as a new version"}
        </Button>
      </div>
    </form>
  );
}
