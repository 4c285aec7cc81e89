import { expect, test } from "@playwright/test";
import { firstStartAdmin } from "./support/admin";
import { collectBrowserErrors } from "./support/browser-errors";
import { seedPersonQuestion } from "./support/tool-questions";
import { signedInAs } from "./support/users";

const ANSWER_SCHEMA = {
  type: "object",
  properties: {
    approved: { type: "boolean", title: "Approve deletion" },
    region: { type: "string", title: "Region", enum: ["eu-west", "us-east"] },
    keepDays: { type: "integer", title: "Days to keep a backup", minimum: 0 },
    reason: { type: "string", title: "Reason", description: "Lower-case words only", pattern: "^[a-z ]+$" },
  },
  required: ["approved", "region"],
};

test("a reviewer answers a tool's question from the review queue with the form its schema generates", async ({ browser, request }) => {
  const { runId, callId } = await seedPersonQuestion({ tool: "ask_owner", question: "May I delete the old cache bucket?", answerSchema: ANSWER_SCHEMA, specification: "Clean up the cache (tool question e2e)" });
  const reviewer = await signedInAs(browser, request, "reviewer");
  const page = await reviewer.context.newPage();
  const errors = collectBrowserErrors(page);

  await page.goto("/escalations");
  const questions = page.getByRole("table", { name: "Questions" });
  const row = questions.locator(`[data-testid="question-row"][data-call-id="${callId}"]`);
  await expect(row).toContainText("May I delete the old cache bucket?");
  await expect(row).toContainText("prime-validator · implement");
  await expect(row).toContainText("ask_owner");
  await expect(row).toContainText(runId.slice(0, 8));
  await expect(row.getByTestId("time-left")).toHaveText(/\d+ (h|min)\b.* left/);
  await row.getByRole("link", { name: "May I delete the old cache bucket?" }).click();

  await expect(page.getByRole("heading", { name: "Question from ask_owner", level: 1 })).toBeVisible();
  await expect(page.getByTestId("question-text")).toHaveText("May I delete the old cache bucket?");

  await test.step("the browser names each field the form refuses", async () => {
    await page.getByLabel("Days to keep a backup").fill("-1");
    await page.getByRole("button", { name: "Send answer" }).click();
    await expect(page.getByTestId("answer-problems")).toContainText("answer.region: is required");
    await expect(page.getByTestId("answer-problems")).toContainText("answer.keepDays: must be at least 0");
    await expect(page.getByLabel("Region")).toHaveAttribute("aria-invalid", "true");
  });

  await test.step("the server names the field its schema refuses (a pattern the browser does not check)", async () => {
    await page.getByLabel("Approve deletion").check();
    await page.getByLabel("Region").selectOption("eu-west");
    await page.getByLabel("Days to keep a backup").fill("7");
    await page.getByLabel("Reason").fill("Empty since May!");
    await page.getByRole("button", { name: "Send answer" }).click();
    await expect(page.getByTestId("answer-refused")).toHaveText('answer.reason: must match pattern "^[a-z ]+$"');
    await expect(page.getByTestId("answer-problems")).toHaveCount(0);
    await expect(page.getByLabel("Reason")).toHaveAttribute("aria-invalid", "true");
  });

  await test.step("a valid answer is sent; the page says who answered and the question leaves the queue", async () => {
    await page.getByLabel("Reason").fill("empty since may");
    await page.getByRole("button", { name: "Send answer" }).click();
    await expect(page.getByTestId("answer-outcome")).toHaveText("Answer sent; the run resumes with it.");
    await expect(page.getByTestId("answered")).toContainText(`Answered by ${reviewer.email}`);
    await expect(page.getByTestId("answered")).toContainText('"keepDays": 7');
    await page.goto("/escalations");
    await expect(page.getByRole("table", { name: "Questions" })).toBeVisible();
    await expect(page.locator(`[data-testid="question-row"][data-call-id="${callId}"]`)).toHaveCount(0);
  });
  // The server's refusal of the pattern is a 400 the browser logs; nothing else may fail.
  expect(errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
  await reviewer.context.close();
});

test("a viewer sees the question without a form; a reviewer who answers second is told who was first", async ({ browser, request }) => {
  const { callId } = await seedPersonQuestion({ tool: "ask_owner", question: "Which region gets the new cache?", answerSchema: ANSWER_SCHEMA, specification: "Place the cache (tool question e2e)" });
  const viewer = await signedInAs(browser, request, "viewer");
  const viewerPage = await viewer.context.newPage();
  await viewerPage.goto(`/escalations/questions/${callId}`);
  await expect(viewerPage.getByTestId("question-text")).toHaveText("Which region gets the new cache?");
  await expect(viewerPage.getByText("Viewers cannot answer tools' questions.")).toBeVisible();
  await expect(viewerPage.getByRole("button", { name: "Send answer" })).toHaveCount(0);
  await viewer.context.close();

  const reviewer = await signedInAs(browser, request, "reviewer");
  const page = await reviewer.context.newPage();
  await page.goto(`/escalations/questions/${callId}`);
  await page.getByLabel("Approve deletion").check();
  await page.getByLabel("Region").selectOption("us-east");
  // The page stops refreshing, as a page left open on a slow connection would: it learns only from its own answer.
  await page.route(/\/api\/trpc\/[^?]*toolCall\.question/, (route) => route.abort());

  const admin = firstStartAdmin();
  const first = await request.post("/api/trpc/toolCall.answer", { data: { json: { callId, answer: { approved: false, region: "eu-west" } } } });
  expect(first.status(), await first.text()).toBe(200);

  await page.getByRole("button", { name: "Send answer" }).click();
  await expect(page.getByTestId("answer-outcome")).toHaveAttribute("data-applied", "false");
  await expect(page.getByTestId("answer-outcome")).toContainText(`was already answered by ${admin.email}`);
  await expect(page.getByTestId("answer-outcome")).toContainText("this report had no effect");
  await page.unroute(/\/api\/trpc\/[^?]*toolCall\.question/);
  await page.reload();
  await expect(page.getByTestId("answered")).toContainText(`Answered by ${admin.email}`);
  await expect(page.getByTestId("answered")).toContainText('"region": "eu-west"');
  await reviewer.context.close();
});
