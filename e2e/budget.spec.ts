import { expect, test } from "@playwright/test";
import { RUN_TIMEOUT } from "./support/escalations";
import { openAdminPage } from "./support/admin-menu";

type TrpcResult<T> = { result: { data: { json: T } } };

test("an admin prices the model, a run shows its cost, and its budget escalation is granted in the browser", async ({ page, request }) => {
  test.setTimeout(180_000);

  // Admin → Prices: a wrong field is named, then the e2e model gets a price.
  await page.goto("/");
  await openAdminPage(page, "Prices");
  await expect(page.getByRole("heading", { name: "Model prices", level: 1 })).toBeVisible();
  const form = page.getByRole("form", { name: "Set a model price" });
  await form.getByLabel("Model").fill("fake-e2e-model");
  await form.getByLabel(/Input price/).fill("1000");
  await form.getByLabel(/Output price/).fill("-2");
  await form.getByRole("button", { name: "Save price" }).click();
  await expect(page.getByTestId("price-error")).toContainText("Output price: must be a price in US dollars per million tokens");
  await form.getByLabel(/Output price/).fill("2000");
  await form.getByRole("button", { name: "Save price" }).click();
  const row = page.locator('[data-testid="price-row"][data-model="fake-e2e-model"]');
  await expect(row).toContainText("1000");
  await expect(row).toContainText("2000");

  // Two model calls, and a budget the first one uses up: the run stops before the second.
  const name = `budgeted-${Date.now()}`;
  const saved = await request.post("/api/trpc/workflow.save", {
    data: {
      json: {
        definition: {
          name,
          description: "Two generations on a small budget",
          specification: "Write add(a, b) in Python",
          language: "python",
          budget: { tokens: 50, on_exceed: "escalate" },
          state_machine: {
            states: ["first", "second", "done"],
            initial_state: "first",
            final_states: ["done"],
            transitions: [
              { from: "first", to: "second", condition: "g_first" },
              { from: "second", to: "done", condition: "g_second" },
            ],
          },
          steps: [
            { name: "write_first", type: "action_pair", in_state: "first", guard_id: "g_first", generator: { kind: "llm" }, prompt: { task: "{specification}" }, guards: [{ kind: "syntax" }] },
            { name: "write_second", type: "action_pair", in_state: "second", guard_id: "g_second", generator: { kind: "llm" }, prompt: { task: "Again: {specification}" }, guards: [{ kind: "syntax" }] },
          ],
        },
      },
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const workflowId = ((await saved.json()) as TrpcResult<{ id: string }>).result.data.json.id;
  const created = await request.post("/api/trpc/run.create", { data: { json: { workflowId, generator: "configured" } } });
  expect(created.status(), await created.text()).toBe(200);
  const runId = ((await created.json()) as TrpcResult<{ id: string }>).result.data.json.id;

  // The run page shows what the first call used and cost, and the budget it reached.
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("suspended", { timeout: RUN_TIMEOUT });
  await expect(page.getByTestId("run-cost")).toHaveText(/^\d[\d,]* tokens · \$0\.\d+$/);
  await expect(page.getByTestId("run-budget")).toContainText("budget 50 tokens");
  await expect(page.locator('[data-testid="step-attempts"][data-step="write_first"]').getByTestId("step-usage")).toContainText("tokens · $");
  const costBefore = await page.getByTestId("run-cost").textContent();

  // The review queue lists the budget escalation; its page shows spent against the budget.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Escalations" }).click();
  const escalation = page.locator(`[data-testid="escalation-row"][data-run-id="${runId}"]`);
  await expect(escalation).toContainText("budget: The run reached its budget");
  await escalation.getByRole("link").first().click();
  await page.waitForURL(/\/escalations\/[0-9a-f-]+$/);
  await expect(page.getByTestId("escalation-review")).toHaveAttribute("data-kind", "budget");
  await expect(page.getByTestId("budget-tokens")).toContainText("of 50");
  await expect(page.getByTestId("budget-usd")).toHaveText(/^\$0\.\d+$/);

  // A grant with a wrong amount is refused by name; a good one resumes the run.
  await page.getByLabel("More tokens").fill("-5");
  await page.getByRole("button", { name: "Grant and resume" }).click();
  await expect(page.getByTestId("grant-error")).toHaveText("grant.tokens: must not be negative");
  await page.getByLabel("More tokens").fill("100000");
  await page.getByRole("button", { name: "Grant and resume" }).click();
  await expect(page.getByTestId("decision-outcome")).toContainText("Approved by");

  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("succeeded", { timeout: RUN_TIMEOUT });
  await expect(page.getByTestId("run-budget")).toContainText("raised 1 time");
  await expect(page.getByTestId("run-cost")).not.toHaveText(costBefore ?? "");
  await expect(page.getByTestId("attempt-usage")).toHaveCount(2);

  // The runs list has the cost column.
  await page.goto("/runs");
  await expect(page.locator(`[data-testid="runs-row"][data-run-id="${runId}"]`).getByTestId("runs-row-cost")).toHaveText(costBefore === null ? /tokens/ : /tokens · \$/);
});
