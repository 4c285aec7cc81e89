"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

/**
 * Starts a workflow: its page, for a name nothing is stored under, opens the designer on a blank
 * machine, and the first Save stores version 1.
 */
export function NewWorkflowForm() {
  const router = useRouter();
  const [name, setName] = useState("");
  return (
    <form
      className="flex items-center gap-2 border-t border-slate-100 px-5 py-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim() !== "") router.push(`/workflows/${encodeURIComponent(name.trim())}`);
      }}
    >
      <label htmlFor="new-workflow-name" className="text-sm text-slate-600">
        New workflow name
      </label>
      <input id="new-workflow-name" value={name} onChange={(event) => setName(event.target.value)} className="rounded-md border border-slate-300 px-2 py-1 text-sm" />
      <button type="submit" disabled={name.trim() === ""} className="rounded-md border border-slate-300 px-3 py-1 text-sm font-medium disabled:opacity-40">
        New workflow
      </button>
    </form>
  );
}
