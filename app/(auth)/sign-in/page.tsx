import type { Metadata } from "next";
import { SignInForm } from "@/components/auth/sign-in-form";

export const metadata: Metadata = { title: "Sign in · Dualstate" };

export default function SignInPage() {
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center gap-6 px-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Sign in to Dualstate</h1>
        <p className="mt-1 text-sm text-slate-600">Accounts are created by an admin. The first admin is printed by `npm start` on a new database.</p>
      </div>
      <SignInForm />
    </main>
  );
}
