import { AdminOnly } from "@/components/admin/admin-only";
import { AuditLog } from "@/components/admin/audit-log";

export default function Page() {
  return (
    <AdminOnly title="Audit log">
      <AuditLog />
    </AdminOnly>
  );
}
