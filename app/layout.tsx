import type { Metadata } from "next";
import type { ReactNode } from "react";
import { TRPCReactProvider } from "@/components/providers/trpc-provider";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Dualstate", template: "%s · Dualstate" },
  description: "LLM code-generation workflows that cannot go wrong silently, with a human in the loop where it matters.",
};

// Every page renders per request: its scripts carry the nonce of that request's
// Content-Security-Policy (proxy.ts), which a page rendered at build time could not.
export const dynamic = "force-dynamic";

// System fonts only: next/font/google would fetch fonts at build time, and there is no internet.
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">
        <TRPCReactProvider>{children}</TRPCReactProvider>
      </body>
    </html>
  );
}
