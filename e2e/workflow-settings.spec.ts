import { expect, test, type Page } from "@playwright/test";
import { recordViolations } from "./support/csp-violations";

/** A valid workflow of `count` states in a chain, each step with a long prompt: about 600 bytes per state. */
function longDocument(name: string, count: number): string {
  const states = Array.from({ length: count }, (_, index) => `s${index}`);
  const sentence = "Describe this part of {specification} in one careful paragraph, naming every assumption it makes. ";
  const steps = states.slice(0, -1).flatMap((state, index) => [`    - name: step_${index}`, `      in_state: ${state}`, `      prompt: "${sentence.repeat(5).trim()}"`, `      transition_to: s${index + 1}`]);
  return ["workflow:", `  name: ${name}`, "  state_machine:", `    states: [${states.join(", ")}]`, "    initial_state: s0", `    final_states: [s${count - 1}]`, "  steps:", ...steps, ""].join("\n");
}

async function importDocument(page: Page, name: string, text: string) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Import YAML" }).click();
  await (await chooser).setFiles({ name, mimeType: "application/yaml", buffer: Buffer.from(text) });
}

test("the workflow settings panel edits document fields, Compare versions names them, and a workflow is renamed and archived", async ({ page }) => {
  const name = `settings-${Date.now()}`;
  await page.goto("/");

  await test.step("the new-workflow form refuses a name that breaks the rule and asks for a blank machine's language", async () => {
    await page.getByLabel("New workflow name").fill("a/../../b");
    await expect(page.getByRole("alert").filter({ hasText: "Name may hold only letters" })).toBeVisible();
    await expect(page.getByRole("button", { name: "New workflow" })).toBeDisabled();
    await expect(page.getByLabel("Language")).toHaveValue("javascript");
    await page.getByLabel("New workflow name").fill(name);
    await page.getByLabel("Start from").selectOption("tdd-lru-cache");
    await expect(page.getByLabel("Language")).toHaveCount(0);
    await page.getByRole("button", { name: "New workflow" }).click();
    await page.waitForURL(`**/workflows/${name}?from=tdd-lru-cache`);
    await expect(page.getByTestId("problems")).toHaveText("Valid.");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved as version 1" })).toBeVisible();
  });

  const settings = page.getByRole("region", { name: "Workflow settings" });
  await test.step("changing only the language is listed by Compare versions", async () => {
    await expect(settings.getByLabel("Language")).toHaveValue("python");
    await settings.getByLabel("Language").selectOption("typescript");
    await expect(page.getByTestId("problems")).toHaveText("Valid.");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved as version 2" })).toBeVisible();
    const compare = page.getByRole("region", { name: "Compare versions" });
    await expect(compare.getByTestId("version-changes")).toHaveText('language changed: "python" → "typescript"');
  });

  await test.step("description and a typed context variable are written into the document", async () => {
    await settings.getByLabel("Description").fill("Edited in the settings panel");
    await settings.getByRole("button", { name: "Add variable" }).click();
    await settings.getByLabel("Variable 2 name").fill("attempts");
    await settings.getByLabel("Variable 2 name").press("Enter");
    await settings.getByLabel("Variable 2 type").selectOption("number");
    await settings.getByLabel("Variable 2 default").fill("4");
    await settings.getByLabel("Variable 2 default").press("Enter");
    await settings.getByLabel("Variable 2 name").fill("1st");
    await settings.getByLabel("Variable 2 name").press("Enter");
    await expect(page.getByRole("alert").filter({ hasText: '"1st" is not a variable name' })).toBeVisible();
    await page.getByRole("tab", { name: "YAML" }).click();
    const yaml = page.getByLabel(/Workflow document/);
    await expect(yaml).toContainText("description: Edited in the settings panel");
    await expect(yaml).toContainText("attempts: 4");
    await expect(page.getByTestId("problems")).toHaveText("Valid.");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved as version 3" })).toBeVisible();
  });

  const renamed = `${name}-renamed`;
  await test.step("rename: the rule is checked as one types, and the page moves to the new name", async () => {
    await page.getByRole("button", { name: "Rename…" }).click();
    await page.getByLabel("New name").fill("x".repeat(120));
    await expect(page.getByRole("alert").filter({ hasText: "Name must be at most 100 characters" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Rename", exact: true })).toBeDisabled();
    await page.getByLabel("New name").fill(renamed);
    await page.getByRole("button", { name: "Rename", exact: true }).click();
    await page.waitForURL(`**/workflows/${renamed}`);
    await expect(page.getByRole("heading", { name: renamed })).toBeVisible();
    await expect(page.getByTestId("version-row")).toHaveCount(4);
  });

  await test.step("archive: not runnable, hidden from the list until 'Show archived'; unarchive brings it back", async () => {
    await page.getByRole("button", { name: "Archive", exact: true }).click();
    await expect(page.getByTestId("archived-note")).toContainText("cannot be run");
    await expect(page.getByRole("button", { name: "Run", exact: true })).toBeDisabled();
    await page.goto("/");
    const row = page.getByTestId("workflow-row").filter({ hasText: renamed });
    await expect(page.getByTestId("workflow-row").first()).toBeVisible();
    await expect(row).toHaveCount(0);
    await page.getByLabel("Show archived").check();
    await expect(row).toContainText("archived");
    await expect(row.getByRole("button", { name: "Run" })).toHaveCount(0);
    await row.getByRole("link", { name: renamed }).click();
    await page.waitForURL(`**/workflows/${renamed}`);
    await page.getByRole("button", { name: "Unarchive" }).click();
    await expect(page.getByTestId("archived-note")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Run", exact: true })).toBeEnabled();
  });
});

test("the live check: a 50 KB document validates over POST, a failed check never reads 'Valid.', and problems sit in the code editor's gutter", async ({ page }) => {
  const name = `live-check-${Date.now()}`;
  const violations = await recordViolations(page);
  await page.goto(`/workflows/${name}`);
  await page.getByRole("tab", { name: "YAML" }).click();
  const editor = page.getByTestId("yaml-editor");
  await expect(editor.locator(".cm-lineNumbers")).toBeVisible();
  // CodeMirror injects its styles; under the page's Content-Security-Policy they still apply.
  await expect(editor.locator(".cm-gutters")).toHaveCSS("display", "flex");
  expect(await violations()).toEqual([]);

  await test.step("a document of more than 50 KB is checked and may be saved", async () => {
    const long = longDocument(name, 100);
    expect(long.length).toBeGreaterThan(50 * 1024);
    await importDocument(page, "long.yaml", long);
    await expect(page.getByTestId("problems")).toHaveText("Valid.", { timeout: 20_000 });
    await expect(page.getByRole("button", { name: "Save" })).toBeEnabled();
  });

  await test.step("a problem is marked in the gutter, and clicking it moves the cursor to its line", async () => {
    const broken = ["workflow:", `  name: ${name}`, "  state_machine:", "    states: [drafting, done]", "    initial_state: drafting", "    final_states: [done]", "  steps:", "    - { name: draft, in_state: drafting, prompt: Write it }", ""].join("\n");
    await importDocument(page, "broken.yaml", broken);
    const problem = page.getByTestId("problem").filter({ hasText: 'state "drafting" has no path to a final state' });
    await expect(problem).toHaveText(/^line 4:\d+ · /);
    await expect(editor.locator(".cm-lint-marker-error").first()).toBeVisible();
    await problem.getByRole("button").click();
    await expect(editor.locator(".cm-activeLine")).toHaveText("    states: [drafting, done]");
  });

  await test.step("when the check request fails, the page says so and Save stays off", async () => {
    await page.route("**/api/trpc/workflow.check**", (route) => route.fulfill({ status: 431, body: "" }));
    await editor.locator(".cm-content").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("# edited while the check fails\n");
    await expect(page.getByRole("alert").filter({ hasText: "Could not check the document" })).toBeVisible();
    await expect(page.getByTestId("problems")).not.toContainText("Valid.");
    await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();
    await page.unroute("**/api/trpc/workflow.check**");
    await importDocument(page, "long.yaml", longDocument(name, 100));
    await expect(page.getByTestId("problems")).toHaveText("Valid.", { timeout: 20_000 });
  });
});
