/** What an empty dashboard shows: what workflows and runs are, and where they come from. */
export function GettingStarted() {
  return (
    <div data-testid="empty-state" className="space-y-3 px-5 py-8 text-sm leading-6 text-slate-600">
      <p className="text-base font-medium text-slate-900">No workflows yet.</p>
      <p>
        A <strong className="font-semibold text-slate-800">workflow</strong> defines the code-generation steps Dualstate
        runs and the guards that check each step&apos;s output. Every change to a workflow is saved as a new version.
      </p>
      <p>
        A <strong className="font-semibold text-slate-800">run</strong> applies the latest version of a workflow to a
        specification you write. A new run starts as <em>queued</em> and is listed below with its status.
      </p>
      <p>
        To create one, enter a name under <em>New workflow</em> below and start from a blank machine or a copy of a
        bundled example. From a terminal, see{" "}
        <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-800">npx dualstate --help</code>; other
        systems call the <code className="font-mono text-slate-800">workflow.create</code> and{" "}
        <code className="font-mono text-slate-800">run.create</code> procedures of the API at{" "}
        <code className="font-mono text-slate-800">/api/trpc</code>.
      </p>
    </div>
  );
}
