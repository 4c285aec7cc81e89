"use client";

import { useMemo, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import type { JsonObject } from "@/server/engine";
import { answerFields, fieldPath, initialValues, optionLabel, problemsFromServer, readAnswer, WHOLE_ANSWER, type AnswerField } from "./answer-form-model";

const INPUT = "mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm aria-[invalid=true]:border-red-600";

function FieldInput({ field, id, value, invalid, describedBy, onChange }: { field: AnswerField; id: string; value: string | boolean; invalid: boolean; describedBy: string | undefined; onChange: (value: string | boolean) => void }) {
  const common = { id, "aria-invalid": invalid, "aria-describedby": describedBy, "aria-required": field.required };
  switch (field.kind) {
    case "boolean":
      return <input {...common} type="checkbox" checked={value === true} onChange={(event) => onChange(event.target.checked)} className="h-4 w-4" />;
    case "enum":
      return (
        <select {...common} value={String(value)} onChange={(event) => onChange(event.target.value)} className={INPUT}>
          <option value="">Choose…</option>
          {field.options.map((option, index) => (
            <option key={index} value={String(index)}>
              {optionLabel(option)}
            </option>
          ))}
        </select>
      );
    case "number":
    case "integer":
      return <input {...common} type="number" inputMode={field.kind === "integer" ? "numeric" : "decimal"} step={field.kind === "integer" ? 1 : "any"} value={String(value)} onChange={(event) => onChange(event.target.value)} className={INPUT} />;
    case "text":
      return <input {...common} type="text" value={String(value)} onChange={(event) => onChange(event.target.value)} className={INPUT} />;
    case "textarea":
    case "json":
      return <textarea {...common} rows={field.kind === "json" ? 6 : 4} value={String(value)} onChange={(event) => onChange(event.target.value)} className={`${INPUT} ${field.kind === "json" ? "font-mono" : ""}`} spellCheck={field.kind !== "json"} />;
  }
}

/**
 * The form a question's answer schema asks for. Checked in the browser first (each problem beside
 * its field, naming it), then by the server against the schema; a server refusal that names a
 * field is shown beside that field too.
 */
export function AnswerForm({ schema, pending, serverError, onAnswer }: { schema: JsonObject | null; pending: boolean; serverError: string | null; onAnswer: (answer: JsonObject) => void }) {
  const fields = useMemo(() => answerFields(schema), [schema]);
  const [values, setValues] = useState(() => initialValues(fields, schema));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const shown = { ...(serverError ? problemsFromServer(fields, serverError) : {}), ...problems };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const read = readAnswer(fields, values);
    if (!read.ok) {
      setProblems(read.problems);
      return;
    }
    setProblems({});
    onAnswer(read.answer);
  };
  const summary = Object.values(problems);
  return (
    <form onSubmit={submit} noValidate aria-label="Answer" className="space-y-4">
      {fields.map((field) => {
        const id = `answer-field-${field.name === WHOLE_ANSWER ? "whole" : field.name}`;
        const problem = shown[field.name];
        const describedBy = [field.description ? `${id}-description` : null, problem ? `${id}-problem` : null].filter(Boolean).join(" ") || undefined;
        const input = <FieldInput field={field} id={id} value={values[field.name] ?? ""} invalid={Boolean(problem)} describedBy={describedBy} onChange={(value) => setValues((current) => ({ ...current, [field.name]: value }))} />;
        return (
          <div key={field.name} data-testid="answer-field" data-field={fieldPath(field)}>
            {field.kind === "boolean" ? (
              <div className="flex items-center gap-2">
                {input}
                <label htmlFor={id} className="text-sm font-medium text-slate-800">
                  {field.label}
                </label>
              </div>
            ) : (
              <label htmlFor={id} className="block text-sm font-medium text-slate-800">
                {field.label}
                {field.required && <span className="ml-1 text-xs font-normal text-slate-500">(required)</span>}
              </label>
            )}
            {field.kind !== "boolean" && input}
            {field.description && (
              <p id={`${id}-description`} className="mt-1 text-xs text-slate-500">
                {field.description}
              </p>
            )}
            {problem && (
              <p id={`${id}-problem`} className="mt-1 text-xs font-medium text-red-700">
                {problem}
              </p>
            )}
          </div>
        );
      })}
      {summary.length > 0 && (
        <p role="alert" data-testid="answer-problems" className="text-sm text-red-700">
          Fix {summary.length === 1 ? "this field" : `these ${summary.length} fields`} first: {summary.join("; ")}
        </p>
      )}
      {serverError && (
        <p role="alert" data-testid="answer-refused" className="text-sm text-red-700">
          {serverError}
        </p>
      )}
      <Button type="submit" variant="primary" disabled={pending}>
        {pending ? "Sending…" : "Send answer"}
      </Button>
    </form>
  );
}
