import type { ReactNode } from "react";
import { DashboardHeader } from "@/components/dashboard/dashboard-header";

export default function DashboardLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <DashboardHeader />
      <main className="mx-auto max-w-6xl px-6 py-8">{children}</main>
    </>
  );
}
