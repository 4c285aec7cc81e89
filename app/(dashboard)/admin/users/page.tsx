import { AdminOnly } from "@/components/admin/admin-only";
import { UsersAdmin } from "@/components/admin/users-admin";

export default function Page() {
  return (
    <AdminOnly title="Users">
      <UsersAdmin />
    </AdminOnly>
  );
}
