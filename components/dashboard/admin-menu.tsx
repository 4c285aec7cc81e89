"use client";

import Link from "next/link";
import { useRef } from "react";

/**
 * The administration pages behind one "Admin" entry, so the main navigation stays on one line and
 * the designer's canvas keeps the height of the window. A native disclosure: it opens without
 * JavaScript; choosing a page closes it (the header stays mounted across client navigations).
 */
export function AdminMenu({ items, linkClass }: { items: readonly { href: string; label: string }[]; linkClass: string }) {
  const menu = useRef<HTMLDetailsElement>(null);
  if (items.length === 0) return null;
  return (
    <details ref={menu} className="relative">
      <summary className={`${linkClass} cursor-pointer list-none`}>Admin</summary>
      <div className="absolute right-0 z-30 mt-1 flex w-44 flex-col rounded-md border border-slate-200 bg-white p-1 shadow-lg">
        {items.map((item) => (
          <Link key={item.href} href={item.href} className={linkClass} onClick={() => menu.current?.removeAttribute("open")}>
            {item.label}
          </Link>
        ))}
      </div>
    </details>
  );
}
