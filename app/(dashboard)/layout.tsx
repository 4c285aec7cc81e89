import type { ReactNode } from "react";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { DashboardHeader } from "@/components/dashboard/dashboard-header";
import { currentActor } from "@/server/auth/app-auth";

// Who is signed in decides what renders: never prerendered.
export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const actor = await currentActor(await headers());
  if (!actor) redirect("/sign-in");
  return (
    <>
      <DashboardHeader user={{ email: actor.email, role: actor.role }} />
      <main className="mx-auto max-w-6xl px-6 py-8">{children}</main>
    </>
  );
}
