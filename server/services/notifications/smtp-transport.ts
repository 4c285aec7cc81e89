import nodemailer from "nodemailer";
import type { EmailMessage } from "@/server/notifications/escalation-email";

/** Sends one email; rejects with the server's reason when it is refused or unreachable. */
export interface MailTransport {
  send(to: string, message: EmailMessage): Promise<void>;
  close(): void;
}

/** Bounds on every connection, so an SMTP server that stops answering cannot hold a dispatcher. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** An SMTP transport for `url` (smtp://user:password@host:587, or smtps://… for TLS from the start). */
export function createSmtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport({ url, ...TIMEOUTS });
  return {
    async send(to, message) {
      await transporter.sendMail({ from, to, subject: message.subject, text: message.text, html: message.html });
    },
    close: () => transporter.close(),
  };
}
