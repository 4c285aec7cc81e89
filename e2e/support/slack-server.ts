/**
 * The dashboard's Slack in the end-to-end suite: a Slack-shaped server (server/notifications/
 * testing/slack-server.ts) on SLACK_PORT, which the dashboard posts to; and on SLACK_CONTROL_PORT,
 * for specs, what it received (GET /received) and a click on a button as Slack sends it, signed
 * (POST /click { userId, actionId, value, response }), or the last click again (POST /replay).
 */
import { createServer } from "node:http";
import { startSlackServer, type SignedClick } from "../../server/notifications/testing/slack-server";

const slack = await startSlackServer({ botToken: process.env.SLACK_BOT_TOKEN!, signingSecret: process.env.SLACK_SIGNING_SECRET!, port: Number(process.env.SLACK_PORT) });
slack.webhook("e2e-default");
const interactionsUrl = `${process.env.DASHBOARD_URL}/api/slack/interactions`;
let lastClick: SignedClick | undefined;

const control = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    void (async () => {
      const reply = (status: number, value: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(value));
      };
      if (request.method === "GET" && request.url === "/received") return reply(200, slack.received);
      if (request.method === "POST" && request.url === "/click") {
        const click = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { userId: string; actionId: string; value: string; response: string };
        const result = await slack.click(interactionsUrl, { ...click, responseUrl: slack.responseUrl(click.response) });
        lastClick = result.request;
        return reply(200, { status: result.status, text: result.text });
      }
      if (request.method === "POST" && request.url === "/replay" && lastClick) return reply(200, await slack.resend(interactionsUrl, lastClick));
      reply(404, {});
    })().catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
});
control.listen(Number(process.env.SLACK_CONTROL_PORT), "127.0.0.1");
