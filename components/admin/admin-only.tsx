import type { ReactNode } from "react";
import { headers } from "next/headers";
import { currentActor } from "@/server/auth/app-auth";
import Link from "next/link";
import { ProblemPanel } from "@/components/dashboard/problem-panel";

/** Admin pages: anyone else gets a clear refusal (the procedures refuse them too). */
export async function AdminOnly({ title, children }: { title: string; children: ReactNode }) {
  const actor = await currentActor(await headers());
  if (actor?.role !== "admin") {
    return (
      <ProblemPanel
        title="Admins only"
        actions={
          <Link href="/" className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700">
            Back to the overview
          </Link>
        }
      >
        <p>{title} can only be seen by admins; you are signed in as a {actor?.role ?? "visitor"}.</p>
      </ProblemPanel>
    );
  }
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
      {children}
    </div>
  );
}
