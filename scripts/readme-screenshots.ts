/**
 * npm run screenshots -- --base-url http://127.0.0.1:3000
 *
 * Retakes the README's screenshots from a running dashboard (`npm start`), in Debian's chromium:
 * the designer on the bundled tdd-lru-cache example (public/screenshot.png) and the review page
 * of an escalation the bundled sandbox-escalation example raises (public/escalation-review.png),
 * the run page of the tool-use example waiting for a person's answer (public/run-waiting.png),
 * and the Metrics page of the last 24 hours (public/metrics.png).
 * Signs in as DUALSTATE_SCREENSHOT_EMAIL / DUALSTATE_SCREENSHOT_PASSWORD (a reviewer or admin);
 * it starts one run of sandbox-escalation and one of tool-use, and leaves both waiting.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Page } from "@playwright/test";
import { projectRoot } from "../server/persistence/project-root";

const { values } = parseArgs({ options: { "base-url": { type: "string", default: "http://127.0.0.1:3000" }, out: { type: "string", default: "public" } } });
const baseURL = values["base-url"];
const email = process.env.DUALSTATE_SCREENSHOT_EMAIL;
const password = process.env.DUALSTATE_SCREENSHOT_PASSWORD;
if (!email || !password) {
  console.error("Set DUALSTATE_SCREENSHOT_EMAIL and DUALSTATE_SCREENSHOT_PASSWORD to an account of the dashboard at --base-url.");
  process.exit(2);
}

/** Calls a tRPC procedure with the page's session, the way the README's curl example does. */
async function call<T>(page: Page, procedure: string, input: unknown, method: "GET" | "POST"): Promise<T> {
  const url = `${baseURL}/api/trpc/${procedure}`;
  const response =
    method === "GET"
      ? await page.request.get(`${url}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`)
      : await page.request.post(url, { data: { json: input }, headers: { "content-type": "application/json" } });
  if (!response.ok()) throw new Error(`${procedure}: HTTP ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { result: { data: { json: T } } }).result.data.json;
}

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage({ baseURL, viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("signed-in-user").waitFor();

  await page.goto("/workflows/tdd-lru-cache");
  await page.locator(".react-flow__node").first().waitFor();
  await page.waitForTimeout(1_000); // the canvas fits its view after the first layout
  await page.screenshot({ path: `${values.out}/screenshot.png` });

  const workflow = await call<{ id: string }>(page, "workflow.get", { name: "sandbox-escalation" }, "GET");
  const run = await call<{ id: string }>(page, "run.create", { workflowId: workflow.id, specification: "Clean up the temp folder", generator: "replay" }, "POST");
  let escalationId: string | undefined;
  for (let tries = 0; tries < 60 && !escalationId; tries++) {
    const list = await call<{ items: { id: string; runId: string }[] }>(page, "escalation.list", { status: "pending" }, "GET");
    escalationId = list.items.find((item) => item.runId === run.id)?.id;
    if (!escalationId) await page.waitForTimeout(1_000);
  }
  if (!escalationId) throw new Error(`run ${run.id} raised no escalation within a minute`);
  await page.goto(`/escalations/${escalationId}`);
  await page.getByRole("button", { name: /Approve/ }).first().waitFor();
  await page.screenshot({ path: `${values.out}/escalation-review.png` });
  // The tool-use example replayed without its recorded answer: its agent asks a person and the run waits.
  const toolUse = await call<{ id: string }>(page, "workflow.get", { name: "tool-use" }, "GET");
  const cassette = JSON.parse(readFileSync(join(projectRoot(), "examples", "tool-use.cassette.json"), "utf8")) as { reports?: unknown };
  delete cassette.reports;
  const waiting = await call<{ id: string }>(page, "run.create", { workflowId: toolUse.id, generator: "replay", cassette: JSON.stringify(cassette) }, "POST");
  await page.goto(`/runs/${waiting.id}`);
  await page.getByTestId("waiting-call").first().waitFor({ timeout: 90_000 });
  await page.getByText(/^Waiting for (a tool call|\d+ tool calls)$/).first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${values.out}/run-waiting.png` });
  await page.goto("/insights?range=24h");
  await page.locator(".recharts-bar-rectangle").first().waitFor();
  await page.screenshot({ path: `${values.out}/metrics.png` });

  console.log(`wrote ${values.out}/screenshot.png, ${values.out}/escalation-review.png, ${values.out}/run-waiting.png and ${values.out}/metrics.png (runs ${run.id} and ${waiting.id}, escalation ${escalationId})`);
} finally {
  await browser.close();
}
