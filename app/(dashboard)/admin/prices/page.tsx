import type { Metadata } from "next";
import { AdminOnly } from "@/components/admin/admin-only";
import { PricesAdmin } from "@/components/admin/prices-admin";

export const metadata: Metadata = { title: "Model prices" };

export default function Page() {
  return (
    <AdminOnly title="Model prices">
      <PricesAdmin />
    </AdminOnly>
  );
}
