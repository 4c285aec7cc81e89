import Link from "next/link";
import { DashboardHeader } from "@/components/dashboard/dashboard-header";
import { ProblemPanel } from "@/components/dashboard/problem-panel";

export default function NotFound() {
  return (
    <>
      <DashboardHeader />
      <main className="px-6">
        <ProblemPanel
          title="Page not found"
          actions={
            <Link href="/" className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700">
              Back to the overview
            </Link>
          }
        >
          <p>There is no page at this address.</p>
        </ProblemPanel>
      </main>
    </>
  );
}
