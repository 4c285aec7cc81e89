import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { collectBrowserErrors } from "./support/browser-errors";
import { pendingEscalationOf, startEscalatingRun } from "./support/escalations";
import { signedInAs } from "./support/users";

// The example dataset shipped for prime-validator; the spec breaks one field of its second line.
const EXAMPLE = readFileSync("examples/datasets/prime-validator.jsonl", "utf8");
const BROKEN = EXAMPLE.replace(/^(.*\n)(\{"key": "is-prime-edges", )"specification"/, '$1$2"specificaton"');
const DATASET = `e2e primes ${Date.now()}`;
const RUN_TIMEOUT = 60_000;

async function upload(page: Page, text: string) {
  await page.getByLabel("File (JSONL, CSV or YAML)").setInputFiles({ name: "prime-validator.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(text) });
  await page.getByLabel("Dataset name").fill(DATASET);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
}

test("a dataset: upload with a mistake, fix it, add a case by hand and one from a finished run", async ({ page }) => {
  test.setTimeout(RUN_TIMEOUT + 90_000);
  expect(BROKEN).not.toBe(EXAMPLE);
  const browserErrors = collectBrowserErrors(page);

  await test.step("the upload lists the file's mistake by line and field, storing nothing", async () => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Datasets" }).click();
    await page.getByRole("link", { name: "Upload a dataset" }).click();
    await upload(page, BROKEN);
    const problems = page.getByTestId("upload-error");
    await expect(problems).toHaveCount(2);
    await expect(problems.nth(0)).toContainText("line 2");
    await expect(problems.nth(0)).toContainText("specificaton");
    await expect(problems.nth(0)).toContainText("is not a case field");
    await expect(problems.nth(1)).toContainText("line 2");
    await expect(problems.nth(1)).toContainText("specification");
    await expect(problems.nth(1)).toContainText("is required");
    await expect(page).toHaveURL(/\/datasets\/upload$/);
  });

  await test.step("the fixed file becomes version 1 with its cases", async () => {
    await upload(page, EXAMPLE);
    await page.waitForURL(/\/datasets\/[0-9a-f-]+\?version=1$/);
    await expect(page.getByRole("heading", { name: DATASET })).toBeVisible();
    await expect(page.getByTestId("cases-title")).toHaveText("Version 1: 5 cases");
    await expect(page.getByTestId("case-row").nth(1)).toHaveAttribute("data-key", "is-prime-edges");
    await expect(page.getByTestId("case-row").nth(2)).toContainText("python tests");
  });

  await test.step("a case added by hand is version 2; version 1 stays as it was", async () => {
    await page.getByRole("button", { name: "Add case" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a case" });
    await dialog.getByLabel("Key").fill("is-prime-one");
    await dialog.getByLabel("Specification").fill("Write is_prime(n); is_prime(1) is False");
    await dialog.getByLabel("Rubric (optional)").fill("Handles 1 explicitly");
    await dialog.getByRole("button", { name: "Save as a new version" }).click();
    await expect(page.getByTestId("cases-title")).toHaveText("Version 2: 6 cases");
    await expect(page.getByTestId("case-row").last()).toContainText("is-prime-one");
    await expect(page.getByTestId("case-row").last()).toContainText("rubric: Handles 1 explicitly");
    await page.getByRole("link", { name: /^v1/ }).click();
    await expect(page.getByTestId("cases-title")).toHaveText("Version 1: 5 cases");
    await expect(page.getByRole("button", { name: "Add case" })).toHaveCount(0);
  });

  await test.step("a finished run's specification becomes a case from the run page", async () => {
    await page.goto("/");
    await page.getByTestId("workflow-row").filter({ hasText: "tdd-lru-cache" }).getByRole("button", { name: "Run", exact: true }).click();
    const start = page.getByRole("dialog", { name: "Run tdd-lru-cache" });
    await expect(start.getByLabel("Replay bundled cassette")).toBeChecked();
    await start.getByRole("button", { name: "Start run" }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]+$/);
    const runId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("succeeded", { timeout: RUN_TIMEOUT });

    await page.getByRole("button", { name: "Add to dataset" }).click();
    const dialog = page.getByRole("dialog", { name: "Add to dataset" });
    await dialog.getByLabel("Dataset").fill(DATASET);
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    const added = page.getByTestId("added-to-dataset");
    await expect(added).toContainText(`run-${runId.slice(0, 8)} (v3)`);
    await added.getByRole("link").click();
    await expect(page.getByTestId("cases-title")).toHaveText("Version 3: 7 cases");
    const fromRun = page.getByTestId("case-row").last();
    await expect(fromRun).toHaveAttribute("data-key", `run-${runId.slice(0, 8)}`);
    await expect(fromRun).toContainText("LRUCache");
    await expect(fromRun.getByRole("link", { name: "run" })).toHaveAttribute("href", `/runs/${runId}`);
  });

  await test.step("the list shows the dataset at its newest version", async () => {
    await page.getByRole("link", { name: "Datasets" }).first().click();
    const row = page.getByTestId("dataset-row").filter({ hasText: DATASET });
    await expect(row).toContainText("v3");
    await expect(row).toContainText("7");
  });

  expect(browserErrors).toEqual([]);
});

test("a decided escalation becomes a case with the reviewer's comment as its rubric", async ({ page }) => {
  test.setTimeout(RUN_TIMEOUT + 60_000);
  const browserErrors = collectBrowserErrors(page);
  const runId = await startEscalatingRun(page.request, "Report the disk usage of a folder");
  const escalation = await pendingEscalationOf(page.request, runId);
  const comment = "Never shell out; use shutil.disk_usage";
  const decided = await page.request.post("/api/trpc/escalation.decide", { data: { json: { escalationId: escalation.id, contentHash: escalation.contentHash, decision: "reject", comment } } });
  expect(decided.status(), await decided.text()).toBe(200);

  await page.goto(`/escalations/${escalation.id}`);
  await expect(page.getByTestId("escalation-status")).toContainText("rejected");
  await page.getByRole("button", { name: "Add to dataset" }).click();
  const dialog = page.getByRole("dialog", { name: "Add to dataset" });
  await expect(dialog.getByLabel("Rubric")).toHaveValue(comment);
  await dialog.getByLabel("Dataset").fill(`${DATASET} judged`);
  await dialog.getByRole("button", { name: "Add", exact: true }).click();
  await page.getByTestId("added-to-dataset").getByRole("link").click();
  const item = page.getByTestId("case-row");
  await expect(item).toHaveCount(1);
  await expect(item).toHaveAttribute("data-key", `escalation-${escalation.id.slice(0, 8)}`);
  await expect(item).toContainText("Report the disk usage of a folder");
  await expect(item).toContainText(`rubric: ${comment}`);
  await expect(item.getByRole("link", { name: "escalation" })).toHaveAttribute("href", `/escalations/${escalation.id}`);
  expect(browserErrors).toEqual([]);
});

test("a viewer reads datasets but every change is disabled with the reason", async ({ browser, request }) => {
  const name = `e2e viewer ${Date.now()}`;
  const uploaded = await request.post("/api/trpc/datasets.upload", { data: { json: { name, fileName: "prime-validator.jsonl", text: EXAMPLE } } });
  expect(uploaded.status(), await uploaded.text()).toBe(200);
  const viewer = await signedInAs(browser, request, "viewer");
  const page = await viewer.context.newPage();
  await page.goto("/datasets");
  const row = page.getByTestId("dataset-row").filter({ hasText: name });
  await expect(page.getByRole("link", { name: "Upload a dataset" })).toHaveCount(0);
  await row.getByRole("link").click();
  await expect(page.getByTestId("case-row").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Add case" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Add case" })).toHaveAccessibleDescription("Viewers cannot change datasets");
  await expect(page.getByRole("button", { name: /^Edit case/ })).toHaveCount(0);
  await page.goto("/datasets/upload");
  await expect(page.getByRole("button", { name: "Upload", exact: true })).toBeDisabled();
  await viewer.context.close();
});
