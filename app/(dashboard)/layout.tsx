import type { ReactNode } from "react";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { SignedInUserProvider } from "@/components/auth/signed-in-user";
import { DashboardHeader } from "@/components/dashboard/dashboard-header";
import { currentActor } from "@/server/auth/app-auth";

// Who is signed in decides what renders: never prerendered.
export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const actor = await currentActor(await headers());
  if (!actor) redirect("/sign-in");
  const user = { email: actor.email, role: actor.role };
  return (
    <SignedInUserProvider user={user}>
      <DashboardHeader user={user} />
      <main className="mx-auto max-w-6xl px-6 py-8">{children}</main>
    </SignedInUserProvider>
  );
}
