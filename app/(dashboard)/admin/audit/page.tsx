import { AdminOnly } from "@/components/admin/admin-only";
import { Suspense } from "react";
import { AuditLog } from "@/components/admin/audit-log";

export default function Page() {
  return (
    <AdminOnly title="Audit log">
      {/* The log reads its search and filters from the URL (useSearchParams). */}
      <Suspense>
        <AuditLog />
      </Suspense>
    </AdminOnly>
  );
}
