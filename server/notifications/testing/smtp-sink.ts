import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** An email as the sink received it over SMTP, parsed. */
export interface ReceivedEmail {
  readonly from: string;
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export interface SmtpSink {
  readonly url: string;
  readonly port: number;
  readonly received: ReceivedEmail[];
  /** Refuse every message with this reply (a full mailbox, a rejected sender) until cleared. */
  refuseWith: string | null;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package) that keeps what it receives, for
 * tests and the end-to-end suite. Plain SMTP without STARTTLS: it only listens on loopback.
 */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const received: ReceivedEmail[] = [];
  const sink: SmtpSink = {
    url: "",
    port: 0,
    received,
    refuseWith: null,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    size: 1_000_000,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (sink.refuseWith) {
          callback(Object.assign(new Error(sink.refuseWith), { responseCode: 550 }));
          return;
        }
        simpleParser(Buffer.concat(chunks))
          .then((mail) => {
            received.push({
              from: mail.from?.text ?? "",
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              subject: mail.subject ?? "",
              text: mail.text ?? "",
              html: typeof mail.html === "string" ? mail.html : "",
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = (server.server.address() as { port: number }).port;
  Object.assign(sink, { port: address, url: `smtp://127.0.0.1:${address}` });
  return sink;
}
