"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { RefusalNote } from "@/components/auth/refusal-note";
import { usePermission } from "@/components/auth/signed-in-user";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { DEFAULT_LANGUAGE, WORKFLOW_LANGUAGES } from "@/components/designer/settings-ops";
import { workflowNameProblem } from "@/server/workflows/definition/workflow-name";

const BLANK = "";

/**
 * Starts a workflow: its page, for a name nothing is stored under, opens the designer on a blank
 * machine in the chosen language, or on a copy of a bundled example (its own language) under the
 * new name; the first Save stores version 1. The name follows the one workflow name rule.
 */
export function NewWorkflowForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const examples = useQuery(trpc.workflow.examples.queryOptions());
  const models = useQuery(trpc.models.status.queryOptions());
  const [name, setName] = useState("");
  const [example, setExample] = useState(BLANK);
  const { allowed, reason } = usePermission("create_workflow");
  const reasonId = useId();
  const canManageModels = usePermission("manage_models").allowed;
  const [language, setLanguage] = useState<string>(DEFAULT_LANGUAGE);
  const trimmed = name.trim();
  const problem = trimmed === "" ? null : workflowNameProblem(trimmed);
  return (
    <form
      className="flex flex-wrap items-center gap-2 border-t border-slate-100 px-5 py-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (trimmed === "" || problem !== null || !allowed) return;
        const page = `/workflows/${encodeURIComponent(trimmed)}`;
        router.push(example === BLANK ? `${page}?language=${encodeURIComponent(language)}` : `${page}?from=${encodeURIComponent(example)}`);
      }}
    >
      <label htmlFor="new-workflow-name" className="text-sm text-slate-600">
        New workflow name
      </label>
      <input
        id="new-workflow-name"
        value={name}
        maxLength={200}
        aria-invalid={problem !== null}
        aria-describedby={problem !== null ? "new-workflow-name-problem" : undefined}
        onChange={(event) => setName(event.target.value)}
        className="rounded-md border border-slate-300 px-2 py-1 text-sm"
      />
      <label htmlFor="new-workflow-start" className="text-sm text-slate-600">
        Start from
      </label>
      <select id="new-workflow-start" value={example} onChange={(event) => setExample(event.target.value)} className="rounded-md border border-slate-300 px-2 py-1 text-sm">
        <option value={BLANK}>A blank machine</option>
        {examples.data?.map((entry) => (
          <option key={entry.name} value={entry.name} title={entry.description}>
            Example: {entry.name}
          </option>
        ))}
      </select>
      {example === BLANK && (
        <>
          <label htmlFor="new-workflow-language" className="text-sm text-slate-600">
            Language
          </label>
          <select id="new-workflow-language" value={language} onChange={(event) => setLanguage(event.target.value)} className="rounded-md border border-slate-300 px-2 py-1 text-sm">
            {WORKFLOW_LANGUAGES.map((entry) => (
              <option key={entry} value={entry}>
                {entry}
              </option>
            ))}
          </select>
        </>
      )}
      <button type="submit" disabled={trimmed === "" || problem !== null || !allowed} title={reason ?? undefined} aria-describedby={reason ? reasonId : undefined} className="rounded-md border border-slate-300 px-3 py-1 text-sm font-medium disabled:opacity-40">
        New workflow
      </button>
      <RefusalNote id={reasonId} reason={reason} />
      {models.data && !models.data.configured && (
        <p role="note" data-testid="no-model-configured" className="w-full text-sm text-amber-800">
          No model is configured, so new steps (which call the default model) cannot run yet; runs can still replay a cassette file.{" "}
          {canManageModels ? (
            <Link href="/admin/models" className="font-medium underline">
              Configure a model endpoint in Admin → Models
            </Link>
          ) : (
            "Ask an admin to configure a model endpoint under Admin → Models."
          )}
        </p>
      )}
      {problem !== null && (
        <p id="new-workflow-name-problem" role="alert" className="basis-full text-sm text-red-700">
          Name {problem}.
        </p>
      )}
    </form>
  );
}
