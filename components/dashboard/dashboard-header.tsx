import Link from "next/link";

const NAV_ITEMS = [
  { href: "/", label: "Overview" },
  { href: "/#workflows", label: "Workflows" },
  { href: "/#runs", label: "Runs" },
] as const;

export function DashboardHeader() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-6 py-4">
        <Link href="/" className="flex items-baseline gap-3" data-testid="product-name">
          <span className="text-lg font-semibold tracking-tight text-slate-900">Dualstate</span>
          <span className="hidden text-sm text-slate-500 sm:inline">code-generation workflows</span>
        </Link>
        <nav aria-label="Main" className="flex gap-1 text-sm">
          {NAV_ITEMS.map((item) => (
            <Link
              key={item.href}
              href={item.href}
              className="rounded-md px-3 py-1.5 font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900"
            >
              {item.label}
            </Link>
          ))}
        </nav>
      </div>
    </header>
  );
}
