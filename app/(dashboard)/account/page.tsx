import type { Metadata } from "next";
import { headers } from "next/headers";
import { ChangePasswordForm } from "@/components/account/change-password-form";
import { EmailNotificationsToggle } from "@/components/account/email-notifications-toggle";
import { SlackNotificationsForm } from "@/components/account/slack-notifications-form";
import { currentActor } from "@/server/auth/app-auth";

export const metadata: Metadata = { title: "Your account" };

export default async function AccountPage() {
  // The layout already sent anonymous visitors to sign in.
  const actor = await currentActor(await headers());
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Your account</h1>
        <p className="text-sm text-slate-600">
          Signed in as {actor?.email} ({actor?.role}).
        </p>
      </div>
      <ChangePasswordForm />
      <EmailNotificationsToggle />
      <SlackNotificationsForm />
    </div>
  );
}
