import { AdminOnly } from "@/components/admin/admin-only";
import { RoutingEditor } from "@/components/routing/routing-editor";

export default function Page() {
  return (
    <AdminOnly title="Routing">
      <RoutingEditor />
    </AdminOnly>
  );
}
