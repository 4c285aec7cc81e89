import { AdminOnly } from "@/components/admin/admin-only";
import { ModelsAdmin } from "@/components/admin/models/models-admin";

export default function Page() {
  return (
    <AdminOnly title="Models">
      <ModelsAdmin />
    </AdminOnly>
  );
}
