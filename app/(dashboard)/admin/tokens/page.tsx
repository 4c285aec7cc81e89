import { AdminOnly } from "@/components/admin/admin-only";
import { TokensAdmin } from "@/components/admin/tokens-admin";

export default function Page() {
  return (
    <AdminOnly title="API tokens">
      <TokensAdmin />
    </AdminOnly>
  );
}
