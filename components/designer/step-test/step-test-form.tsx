"use client";

import { useMemo, useRef, useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC, useTRPCClient } from "@/components/providers/trpc-provider";
import type { RouterInputs } from "@/server/api/root";
import { INPUT, SMALL_BUTTON } from "../fields";
import { DependencyInput } from "./dependency-input";
import { draftInputs, type VariableValue } from "./draft-inputs";
import type { StepTestDraft } from "./step-test-scope";
import { StepTestResultView } from "./step-test-result-view";
import { VariableInputs } from "./variable-inputs";

type TestInput = RouterInputs["stepTest"]["run"];
type Source = TestInput["generator"]["kind"];

const SOURCES: readonly (readonly [Source, string])[] = [
  ["answer", "A pasted answer"],
  ["model", "The step's model"],
  ["cassette", "A cassette"],
];

/**
 * The step test's inputs (specification, variables, dependency artifacts, who answers) and its
 * result. Cancel aborts the request, which stops the model call and the sandboxes on the server.
 */
export function StepTestForm({ draft, step, state, onClose }: { draft: StepTestDraft; step: string; state: string; onClose: () => void }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  // The inputs start from the draft as it was when the dialog opened.
  const defaults = useMemo(() => draftInputs(draft.document, step), [draft.document, step]);
  const [specification, setSpecification] = useState(defaults.specification);
  const [variables, setVariables] = useState<Record<string, VariableValue>>(() => Object.fromEntries(defaults.variables.map(({ name, value }) => [name, value])));
  const [dependencies, setDependencies] = useState<Record<string, string>>({});
  const [source, setSource] = useState<Source>("answer");
  const [answer, setAnswer] = useState("");
  const [cassette, setCassette] = useState("");
  const [retries, setRetries] = useState(false);
  const running = useRef<AbortController | null>(null);
  const [cancelled, setCancelled] = useState(false);

  const guardIds = defaults.dependencies.map((dependency) => dependency.guardId);
  const pinnable = useQuery({ ...trpc.stepTest.pinnable.queryOptions({ workflow: draft.workflow, guardIds }), enabled: guardIds.length > 0 });
  const test = useMutation({
    mutationFn: ({ input, signal }: { input: TestInput; signal: AbortSignal }) => client.stepTest.run.mutate(input, { signal }),
  });

  function run() {
    const controller = new AbortController();
    running.current = controller;
    setCancelled(false);
    const generator: TestInput["generator"] = source === "answer" ? { kind: "answer", answer } : source === "cassette" ? { kind: "cassette", cassette } : { kind: "model" };
    const input: TestInput = { document: draft.document, state, step, specification, variables, dependencies, generator, retries: source !== "answer" && retries };
    test.mutate({ input, signal: controller.signal }, { onSettled: () => (running.current = null) });
  }

  function cancel() {
    // The request's abort reaches the server, which stops the model call and the sandboxes.
    running.current?.abort();
    running.current = null;
    test.reset();
    setCancelled(true);
  }

  return (
    <div className="max-h-[75vh] space-y-4 overflow-y-auto pr-1">
      <p className="text-xs text-slate-500">
        Runs this step of the draft as a run would (same prompt, guards and sandboxes), without starting a run or storing anything. Unsaved changes are included.
      </p>
      <div className="space-y-0.5">
        <label htmlFor="step-test-specification" className="block text-xs font-medium text-slate-600">
          Specification
        </label>
        <textarea id="step-test-specification" rows={2} value={specification} onChange={(event) => setSpecification(event.target.value)} className={INPUT} />
      </div>
      <VariableInputs variables={defaults.variables} values={variables} onChange={(name, value) => setVariables((current) => ({ ...current, [name]: value }))} />
      {defaults.dependencies.length > 0 && (
        <fieldset className="space-y-2">
          <legend className="text-xs font-semibold text-slate-700">Dependency artifacts</legend>
          {defaults.dependencies.map((dependency) => (
            <DependencyInput
              key={dependency.guardId}
              dependency={dependency}
              value={dependencies[dependency.name] ?? ""}
              pinnable={pinnable.data?.find((entry) => entry.guardId === dependency.guardId)?.artifacts ?? []}
              onChange={(value) => setDependencies((current) => ({ ...current, [dependency.name]: value }))}
            />
          ))}
        </fieldset>
      )}
      <fieldset className="space-y-2">
        <legend className="text-xs font-semibold text-slate-700">Who answers</legend>
        <div className="flex flex-wrap gap-4">
          {SOURCES.map(([value, label]) => (
            <label key={value} className="flex items-center gap-1 text-sm">
              <input type="radio" name="step-test-source" value={value} checked={source === value} onChange={() => setSource(value)} />
              {label}
            </label>
          ))}
        </div>
        {source === "answer" && (
          <div className="space-y-0.5">
            <label htmlFor="step-test-answer" className="block text-xs font-medium text-slate-600">
              Answer (used as the artifact, as a replayed answer is)
            </label>
            <textarea id="step-test-answer" rows={8} spellCheck={false} value={answer} onChange={(event) => setAnswer(event.target.value)} className={`${INPUT} font-mono`} />
          </div>
        )}
        {source === "cassette" && (
          <div className="space-y-0.5">
            <label htmlFor="step-test-cassette" className="block text-xs font-medium text-slate-600">
              Cassette name (from the cassette directory or the bundled examples)
            </label>
            <input id="step-test-cassette" value={cassette} onChange={(event) => setCassette(event.target.value)} className={INPUT} />
          </div>
        )}
        {source !== "answer" && (
          <label className="flex items-center gap-1 text-sm">
            <input type="checkbox" checked={retries} onChange={(event) => setRetries(event.target.checked)} />
            Retry with the guards&apos; feedback, up to the step&apos;s retry budget
          </label>
        )}
      </fieldset>
      <div className="flex items-center gap-2">
        <button type="button" onClick={run} disabled={test.isPending} className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-semibold text-white disabled:opacity-40">
          {test.isPending ? "Running…" : "Run test"}
        </button>
        {test.isPending && (
          <button type="button" className={SMALL_BUTTON} onClick={cancel}>
            Cancel
          </button>
        )}
        <button type="button" className={`${SMALL_BUTTON} ml-auto`} onClick={onClose}>
          Close
        </button>
      </div>
      {cancelled && <p role="status" className="text-sm text-slate-600">Cancelled: the test was stopped.</p>}
      {test.error && (
        <p role="alert" className="whitespace-pre-wrap text-sm text-red-700">
          {test.error.message}
        </p>
      )}
      {test.data && !test.isPending && <StepTestResultView result={test.data} language={defaults.language} />}
    </div>
  );
}
