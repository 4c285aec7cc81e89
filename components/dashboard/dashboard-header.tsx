import Link from "next/link";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { AdminMenu } from "./admin-menu";
import { can, type Action, type Role } from "@/server/auth/permissions";

const NAV_ITEMS = [
  { href: "/", label: "Overview" },
  { href: "/#workflows", label: "Workflows" },
  { href: "/runs", label: "Runs" },
  { href: "/escalations", label: "Escalations" },
  // /insights: /metrics is the Prometheus endpoint's address.
  { href: "/insights", label: "Metrics" },
  { href: "/datasets", label: "Datasets" },
  { href: "/experiments", label: "Experiments" },
] as const;

const ADMIN_ITEMS: readonly { href: string; label: string; action: Action }[] = [
  { href: "/admin/users", label: "Users", action: "manage_users" },
  { href: "/admin/tokens", label: "API tokens", action: "manage_tokens" },
  { href: "/admin/models", label: "Models", action: "manage_models" },
  { href: "/admin/prices", label: "Prices", action: "manage_models" },
  { href: "/admin/groups", label: "Groups", action: "manage_groups" },
  { href: "/admin/routing", label: "Routing", action: "edit_routing" },
  { href: "/admin/audit", label: "Audit log", action: "read_audit_log" },
];

const linkClass = "rounded-md px-3 py-1.5 font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900";

/** `user` is absent on pages outside the signed-in dashboard (the global not-found page). */
export function DashboardHeader({ user }: { user?: { email: string; role: Role } }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-6 py-4">
        <Link href="/" className="flex items-baseline gap-3" data-testid="product-name">
          <span className="text-lg font-semibold tracking-tight text-slate-900">Dualstate</span>
          {/* Only where the full navigation still fits on one line beside it. */}
          <span className="hidden text-sm text-slate-500 2xl:inline">code-generation workflows</span>
        </Link>
        <nav aria-label="Main" className="flex flex-wrap gap-1 text-sm">
          {NAV_ITEMS.map((item) => (
            <Link key={item.href} href={item.href} className={linkClass}>
              {item.label}
            </Link>
          ))}
          <AdminMenu items={ADMIN_ITEMS.filter((item) => can(user?.role, item.action)).map(({ href, label }) => ({ href, label }))} linkClass={linkClass} />
        </nav>
        {user && (
          <div className="flex items-center gap-3 text-sm" data-testid="signed-in-user">
            <Link href="/account" className="text-slate-700 hover:underline" title="Your account: change your password">
              {user.email}
            </Link>
            <span className="rounded bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">{user.role}</span>
            <SignOutButton />
          </div>
        )}
      </div>
    </header>
  );
}
