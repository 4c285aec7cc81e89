import Link from "next/link";
import { ProblemPanel } from "@/components/dashboard/problem-panel";

export default function RunNotFound() {
  return (
    <ProblemPanel
      title="Run not found"
      actions={
        <Link href="/#runs" className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700">
          Back to recent runs
        </Link>
      }
    >
      <p>There is no run with this id. It may have been mistyped, or the database was reset.</p>
    </ProblemPanel>
  );
}
