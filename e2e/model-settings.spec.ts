import { expect, test } from "@playwright/test";
import { collectBrowserErrors } from "./support/browser-errors";
import { openAdminPage } from "./support/admin-menu";

type TrpcResult<T> = { result: { data: { json: T } } };

const ENDPOINT = "e2e-settings";
const API_KEY = "sk-e2e-settings-key-0123-7890";

test("an admin adds a model endpoint in Settings, tests it, and the Run dialog names the model a run will use", async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  const browserErrors = collectBrowserErrors(page);
  // The e2e model server (playwright.config.ts) listens on the port after the dashboard's.
  const modelServer = `http://127.0.0.1:${Number(new URL(baseURL ?? "").port) + 1}/v1`;
  const name = `names-an-endpoint-${Date.now()}`;
  const saved = await request.post("/api/trpc/workflow.save", {
    data: {
      json: {
        definition: {
          name,
          specification: "Write add(a, b) in Python",
          language: "python",
          state_machine: { states: ["writing", "done"], initial_state: "writing", final_states: ["done"], transitions: [{ from: "writing", to: "done", condition: "g_add" }] },
          steps: [{ name: "write_add", type: "action_pair", in_state: "writing", guard_id: "g_add", generator: { kind: "llm", endpoint: ENDPOINT }, prompt: { task: "{specification}" }, guards: [{ kind: "syntax" }] }],
        },
      },
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const workflowId = ((await saved.json()) as TrpcResult<{ id: string }>).result.data.json.id;

  await test.step("before the endpoint exists, the Run dialog says why the run cannot start", async () => {
    await page.goto("/");
    await page.getByTestId("workflow-row").filter({ hasText: name }).getByRole("button", { name: "Run", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: `Run ${name}` });
    // The configured model is not the default when it cannot run; a cassette file can.
    await expect(dialog.getByLabel("Replay a cassette file")).toBeChecked();
    await dialog.getByLabel("Configured model").check();
    await expect(dialog.getByTestId("run-models")).toHaveText(`This run cannot start: Step "write_add" needs a model on endpoint "${ENDPOINT}", which is not configured (configured: "environment")`);
    await expect(dialog.getByRole("button", { name: "Start run" })).toBeDisabled();
    // The server refuses it too, with the same reason.
    const refused = await request.post("/api/trpc/run.create", { data: { json: { workflowId, generator: "configured" } } });
    expect(refused.status()).toBe(412);
    expect(await refused.text()).toContain(`The run cannot start: Step \\"write_add\\" needs a model on endpoint \\"${ENDPOINT}\\"`);
  });

  await test.step("Admin → Models lists the environment's endpoint read-only; the admin adds one and tests it", async () => {
    await page.goto("/");
    await openAdminPage(page, "Models");
    await expect(page.getByRole("heading", { name: "Models" })).toBeVisible();
    const environment = page.locator('[data-testid="endpoint-row"][data-name="environment"]');
    await expect(environment).toContainText("from environment, read-only");
    await expect(environment.getByRole("button", { name: "Delete environment" })).toHaveCount(0);

    await page.getByRole("button", { name: "Add endpoint" }).click();
    const form = page.getByRole("form", { name: "New model endpoint" });
    await form.getByLabel("Name", { exact: true }).fill(ENDPOINT);
    await form.getByLabel("Base URL").fill(modelServer);
    await form.getByLabel("API key").fill(API_KEY);
    await form.getByLabel("Default model").fill("fake-e2e-model");
    // Leave the other specs' default (the environment's endpoint) alone.
    await form.getByLabel("Use for steps that name no endpoint").uncheck();
    await form.getByRole("button", { name: "Test connection" }).click();
    await expect(form.getByTestId("connection-result")).toHaveText(`Connected: GET ${modelServer}/models lists 1 model, including the default model "fake-e2e-model".`);
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect(form).toHaveCount(0);

    const row = page.locator(`[data-testid="endpoint-row"][data-name="${ENDPOINT}"]`);
    await expect(row.getByTestId("endpoint-key")).toHaveText("set, ends in …7890");
    await row.getByRole("button", { name: `Test ${ENDPOINT}` }).click();
    await expect(row.getByTestId("connection-result")).toHaveAttribute("data-ok", "true");
    // The key went in and never comes back: not in the page, not in what the list procedure returns.
    expect(await page.content()).not.toContain(API_KEY);
    const listed = await request.get("/api/trpc/models.list");
    expect(await listed.text()).not.toContain(API_KEY);
  });

  await test.step("the Run dialog names the model and endpoint, and the run uses them", async () => {
    await page.goto("/");
    await page.getByTestId("workflow-row").filter({ hasText: name }).getByRole("button", { name: "Run", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: `Run ${name}` });
    await expect(dialog.getByLabel("Configured model")).toBeChecked();
    await expect(dialog.getByTestId("run-models")).toHaveText(`Model fake-e2e-model on endpoint ${ENDPOINT}: write_add`);
    await dialog.getByRole("button", { name: "Start run" }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]+$/);
    await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("succeeded", { timeout: 60_000 });
  });

  await test.step("deleting the endpoint asks first", async () => {
    await page.goto("/admin/models");
    const row = page.locator(`[data-testid="endpoint-row"][data-name="${ENDPOINT}"]`);
    await row.getByRole("button", { name: `Delete ${ENDPOINT}` }).click();
    const confirm = row.getByRole("alertdialog", { name: `Delete ${ENDPOINT}?` });
    await confirm.getByRole("button", { name: "Keep it" }).click();
    await expect(row).toBeVisible();
    await row.getByRole("button", { name: `Delete ${ENDPOINT}` }).click();
    await row.getByRole("button", { name: `Yes, delete ${ENDPOINT}` }).click();
    await expect(page.locator(`[data-testid="endpoint-row"][data-name="${ENDPOINT}"]`)).toHaveCount(0);
  });

  expect(browserErrors).toEqual([]);
});
