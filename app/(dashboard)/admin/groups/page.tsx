import { AdminOnly } from "@/components/admin/admin-only";
import { GroupsAdmin } from "@/components/admin/groups-admin";

export default function Page() {
  return (
    <AdminOnly title="Reviewer groups">
      <GroupsAdmin />
    </AdminOnly>
  );
}
