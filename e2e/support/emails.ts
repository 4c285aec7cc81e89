import { expect } from "@playwright/test";

export interface ReceivedEmail {
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
}

/** Where the e2e SMTP server shows what it received (playwright.config.ts starts it). */
const SINK = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 3}/messages`;

/** The email to `recipient` whose text contains `marker`, once it has arrived. */
export async function emailTo(recipient: string, marker: string, timeout = 60_000): Promise<ReceivedEmail> {
  let found: ReceivedEmail | undefined;
  await expect(async () => {
    const messages = (await (await fetch(SINK)).json()) as ReceivedEmail[];
    found = messages.find((message) => message.to.includes(recipient) && message.text.includes(marker));
    expect(found, `an email to ${recipient} mentioning ${marker}`).toBeDefined();
  }).toPass({ timeout });
  return found!;
}

/** The URL after `label: ` in an email's text ("Approve: https://…"). */
export function linkIn(email: ReceivedEmail, label: string): string {
  const url = new RegExp(`^${label}: (\\S+)$`, "m").exec(email.text)?.[1];
  expect(url, `a "${label}:" link in the email`).toBeDefined();
  return url!;
}
