import { expect, test } from "@playwright/test";
import { pendingEscalationOf, RUN_TIMEOUT, startEscalatingRun, trpcQuery } from "./support/escalations";
import { signedInAs } from "./support/users";

/** The Slack-shaped server's control port (playwright.config.ts starts it). */
const SLACK = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 5}`;
interface SlackPost {
  readonly kind: string;
  readonly to: string;
  readonly body: { text?: string; blocks?: { type: string; elements?: { action_id: string; value?: string; url?: string }[] }[] };
}
const received = async () => (await (await fetch(`${SLACK}/received`)).json()) as SlackPost[];
const click = async (userId: string, actionId: string, value: string, response: string) =>
  (await (await fetch(`${SLACK}/click`, { method: "POST", body: JSON.stringify({ userId, actionId, value, response }) })).json()) as { status: number; text: string };
/** What the dashboard answered a click with, on its response_url. */
async function answerTo(response: string): Promise<SlackPost["body"]> {
  let found: SlackPost | undefined;
  await expect(async () => {
    found = (await received()).find((post) => post.kind === "response" && post.to === `/respond/${response}`);
    expect(found).toBeDefined();
  }).toPass({ timeout: 15_000 });
  return found!.body;
}

test("a reviewer links Slack on their account and proves it with the code sent there, gets the escalation by direct message, Approve answers with the code's confirmation page, approving there resumes the run; strangers and replays decide nothing", async ({ browser, request }) => {
  // Unrouted escalations are told about a minute after they arrive (routing goes first).
  test.setTimeout(300_000);
  const reviewer = await signedInAs(browser, request, "reviewer");
  const memberId = `U0E2E${Date.now().toString(36).toUpperCase()}`;
  const account = await reviewer.context.newPage();
  await account.goto("/account");
  const slackForm = account.getByRole("form", { name: "Slack" });
  await slackForm.getByLabel("Your Slack member id").fill("not an id");
  await slackForm.getByRole("button", { name: "Save Slack settings" }).click();
  await expect(slackForm.getByRole("alert")).toContainText("must be a Slack member id");
  await slackForm.getByLabel("Your Slack member id").fill(memberId.toLowerCase());
  await slackForm.getByLabel("Send me a Slack direct message").check();
  await slackForm.getByRole("button", { name: "Save Slack settings" }).click();
  await expect(slackForm.getByRole("status")).toHaveText("Saved. Now confirm the member id below.");
  // The id is a claim until a code Dualstate sends to it in Slack is typed back.
  const verify = account.getByRole("form", { name: "Verify your Slack member id" });
  await expect(verify).toContainText(`${memberId} is not verified yet`);
  await verify.getByRole("button", { name: "Send code to Slack" }).click();
  let code: string | undefined;
  await expect(async () => {
    const sent = (await received()).filter((post) => post.kind === "chat.postMessage" && post.to === memberId).at(-1);
    code = /code: ([0-9A-Z]{4}-[0-9A-Z]{4})$/.exec(String(sent?.body.text))?.[1];
    expect(code, "a verification code sent to the member id").toBeDefined();
  }).toPass({ timeout: 15_000 });
  await expect(verify).toContainText(`A code was sent to ${memberId}`);
  const wrong = code!.startsWith("0") ? `1${code!.slice(1)}` : `0${code!.slice(1)}`;
  await verify.getByLabel("Code from Slack").fill(wrong);
  await verify.getByRole("button", { name: "Confirm code" }).click();
  await expect(verify.getByRole("alert")).toHaveText("code: the code is wrong; 4 tries left before it is used up");
  await verify.getByLabel("Code from Slack").fill(code!.toLowerCase());
  await verify.getByRole("button", { name: "Confirm code" }).click();
  await expect(account.getByRole("status", { name: "Slack verification" })).toHaveText(`Verified. ${memberId} is verified as your Slack account.`);
  await account.reload();
  await expect(account.getByRole("form", { name: "Slack" }).getByLabel("Your Slack member id")).toHaveValue(memberId);
  await expect(account.getByRole("status", { name: "Slack verification" })).toHaveText(`${memberId} is verified as your Slack account.`);
  await reviewer.context.close();

  const runId = await startEscalatingRun(request, `Report disk usage (Slack approval ${Date.now()})`);
  const escalation = await pendingEscalationOf(request, runId);
  const about = (post: SlackPost) => JSON.stringify(post.body).includes(`/escalations/${escalation.id}`);

  let dm: SlackPost | undefined;
  await expect(async () => {
    const posts = (await received()).filter(about);
    dm = posts.find((post) => post.kind === "chat.postMessage" && post.to === memberId);
    expect(dm, "a direct message to the reviewer").toBeDefined();
    // The default channel too, with only a link to the review page.
    expect(posts.some((post) => post.kind === "webhook" && post.to === "/hooks/e2e-default")).toBe(true);
  }).toPass({ timeout: 150_000 });
  expect(dm!.body.text).toContain("Fatal escalation: sandbox-escalation / write_script");
  expect(JSON.stringify(dm!.body.blocks)).toContain("os.system forbidden");
  const buttons = dm!.body.blocks!.find((block) => block.type === "actions")!.elements!;
  const approve = buttons.find((button) => button.action_id === "dualstate_approve")!;
  const reject = buttons.find((button) => button.action_id === "dualstate_reject")!;

  // A Slack member who is nobody in Dualstate: refused, to them alone.
  expect(await click("U0STRANGER", reject.action_id, reject.value!, "stranger")).toEqual({ status: 200, text: "" });
  expect((await answerTo("stranger")).text).toContain("not linked to a Dualstate reviewer");

  // Approve: the answer is the reviewer's own confirmation page; nothing is decided yet.
  expect((await click(memberId, approve.action_id, approve.value!, "approve")).status).toBe(200);
  // The same signed request again is refused.
  expect(await (await fetch(`${SLACK}/replay`, { method: "POST" })).json()).toEqual({ status: 409, text: "Refused: this signed request was already received." });
  const link = /<(http[^|>]+\/decide\/[^|>]+)\|/.exec(String((await answerTo("approve")).text))?.[1];
  expect(link, "a confirmation link in the answer").toBeDefined();
  expect((await trpcQuery<{ escalation: { status: string } }>(request, "escalation.get", { id: escalation.id })).escalation.status).toBe("pending");

  const slackBrowser = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await slackBrowser.newPage();
  await page.goto(link!);
  await expect(page.getByRole("heading", { name: "Approve this fatal escalation?" })).toBeVisible();
  await expect(page.getByLabel("The escalated artifact").locator('[data-offending="true"]')).toHaveAttribute("data-line", "5");
  await page.getByRole("button", { name: "Confirm approve" }).click();
  await expect(page.getByRole("heading", { name: "Escalation approved" })).toBeVisible();
  await slackBrowser.close();

  await expect(async () => {
    const run = await trpcQuery<{ status: string }>(request, "run.get", { id: runId });
    expect(run.status).toBe("succeeded");
  }).toPass({ timeout: RUN_TIMEOUT });
  expect((await trpcQuery<{ escalation: { status: string; decidedBy: string } }>(request, "escalation.get", { id: escalation.id })).escalation).toMatchObject({ status: "approved", decidedBy: reviewer.email });

  // A late Reject says who decided first.
  await click(memberId, reject.action_id, reject.value!, "late");
  expect((await answerTo("late")).text).toContain(reviewer.email);
});
