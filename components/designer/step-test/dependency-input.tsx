"use client";

import type { RouterOutputs } from "@/server/api/root";
import { INPUT } from "../fields";
import type { DraftDependency } from "./draft-inputs";

type Pinnable = RouterOutputs["stepTest"]["pinnable"][number]["artifacts"][number];

function describe(artifact: Pinnable): string {
  const version = artifact.workflowVersion === null ? "" : ` v${artifact.workflowVersion}`;
  const size = artifact.content === null ? " (too large to pin)" : "";
  return `Run …${artifact.runId.slice(-6)}${version}, attempt ${artifact.attempt}, ${artifact.verdict}, ${new Date(artifact.createdAt).toLocaleString()}${size}`;
}

/** One dependency artifact: typed in, or pinned from what an earlier run of the workflow produced for it. */
export function DependencyInput({ dependency, value, pinnable, onChange }: { dependency: DraftDependency; value: string; pinnable: readonly Pinnable[]; onChange: (value: string) => void }) {
  const id = `step-test-dependency-${dependency.name}`;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-xs font-medium text-slate-600">
        Dependency {dependency.name} ({dependency.guardId})
      </label>
      <select
        aria-label={`Pin ${dependency.name} from an earlier run`}
        value=""
        disabled={pinnable.length === 0}
        onChange={(event) => {
          const picked = pinnable.find((artifact) => artifact.id === event.target.value);
          if (picked?.content != null) onChange(picked.content);
        }}
        className={INPUT}
      >
        <option value="">{pinnable.length === 0 ? "No earlier run produced it" : "Pin from an earlier run…"}</option>
        {pinnable.map((artifact) => (
          <option key={artifact.id} value={artifact.id} disabled={artifact.content === null}>
            {describe(artifact)}
          </option>
        ))}
      </select>
      <textarea id={id} rows={5} spellCheck={false} value={value} onChange={(event) => onChange(event.target.value)} className={`${INPUT} font-mono`} />
    </div>
  );
}
