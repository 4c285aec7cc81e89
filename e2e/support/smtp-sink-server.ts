/**
 * The dashboard's SMTP server in the end-to-end suite: a real SMTP server (server/notifications/
 * testing/smtp-sink.ts) on SMTP_SINK_PORT, and what it received as JSON over HTTP on
 * SMTP_SINK_HTTP_PORT (GET /messages), for specs that follow an emailed link.
 */
import { createServer } from "node:http";
import { startSmtpSink } from "../../server/notifications/testing/smtp-sink";

const sink = await startSmtpSink(Number(process.env.SMTP_SINK_PORT));
const http = createServer((request, response) => {
  if (request.method === "GET" && request.url === "/messages") {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(sink.received));
    return;
  }
  response.writeHead(404).end();
});
http.listen(Number(process.env.SMTP_SINK_HTTP_PORT), "127.0.0.1");
