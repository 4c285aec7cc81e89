import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { connectStates, inspectorOf, selectState, stateNode } from "./support/designer";

// The whole journey of issue 8: design the TDD workflow from nothing, save it, compare two
// versions, run it from a cassette file, watch it succeed, and inspect its provenance.
const CASSETTE = readFileSync("e2e/fixtures/tdd-designed.cassette.json");
const SPECIFICATION = "Implement an LRU cache class LRUCache(capacity) with get(key) and put(key, value)";

async function commit(page: Page, label: string, value: string) {
  const field = inspectorOf(page).getByLabel(label, { exact: true });
  await field.fill(value);
  await field.press("Enter");
  await expect(field).toHaveValue(value);
}

test("the TDD workflow designed from nothing runs from a cassette file, succeeds, and its provenance shows the attempt chain and the dependency", async ({ page }) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const name = `tdd-designed-${Date.now()}`;
  const inspector = inspectorOf(page);

  await test.step("start a blank workflow", async () => {
    await page.goto("/");
    await page.getByLabel("New workflow name").fill(name);
    await expect(page.getByLabel("Start from")).toHaveValue("");
    await page.getByRole("button", { name: "New workflow" }).click();
    // A blank machine is in the language the form shows (JavaScript unless changed).
    await page.waitForURL(`**/workflows/${name}?language=javascript`);
    await expect(page.getByRole("button", { name: "Run", exact: true })).toBeDisabled();
  });

  await test.step("states for the tests, the implementation and the end", async () => {
    for (let count = 1; count <= 3; count++) await page.getByRole("button", { name: "Add state" }).click();
    await expect(page.getByTestId("state-node")).toHaveCount(3);
    for (const [from, to] of [["state_1", "writing_tests"], ["state_2", "implementing"], ["state_3", "done"]] as const) {
      await selectState(page, from);
      await commit(page, "State name", to);
      await expect(stateNode(page, to)).toBeVisible();
    }
    await selectState(page, "writing_tests");
    await inspector.getByLabel("Initial state").check();
    await selectState(page, "done");
    await inspector.getByLabel("Final state").check();
  });

  await test.step("the tests step: a syntax guard under guard id g_test", async () => {
    await selectState(page, "writing_tests");
    await inspector.getByRole("button", { name: "Action pair", exact: true }).click();
    await commit(page, "Step name", "write_tests");
    await commit(page, "Guard id", "g_test");
    await inspector.getByLabel("Prompt task").fill("Write tests for: {specification}");
    await expect(inspector.getByLabel("Guard 1 kind")).toHaveValue("syntax");
  });

  await test.step("the implementation step: syntax, security and tdd guards, depending on the tests", async () => {
    await selectState(page, "implementing");
    await inspector.getByRole("button", { name: "Action pair", exact: true }).click();
    await commit(page, "Step name", "implement");
    await commit(page, "Guard id", "g_impl");
    await inspector.getByLabel("Prompt task").fill("Implement {specification} so that these tests pass:\n{test}");
    await inspector.getByRole("button", { name: "Add guard" }).click();
    await inspector.getByRole("button", { name: "Security", exact: true }).click();
    await expect(inspector.getByLabel("Guard 2 kind")).toHaveValue("security");
    await inspector.getByRole("button", { name: "Add guard" }).click();
    await inspector.getByRole("button", { name: "Test-driven", exact: true }).click();
    await expect(inspector.getByLabel("Guard 3 kind")).toHaveValue("tdd");
    // Without the tests' artifact the tdd guard could never pass: a problem before any run.
    await expect(page.getByTestId("problem").filter({ hasText: "a tdd guard takes its tests from a dependency named test" })).toHaveCount(1);
    await inspector.getByLabel("g_test", { exact: true }).check();
    await expect(inspector.getByLabel("g_test", { exact: true })).toBeChecked();
  });

  await test.step("connect the states: each transition's condition is its source step's guard", async () => {
    await connectStates(page, "writing_tests", "implementing");
    await expect(page.locator(".react-flow__edge")).toHaveCount(1);
    await connectStates(page, "implementing", "done");
    await expect(page.locator(".react-flow__edge")).toHaveCount(2);
    await expect(page.locator(".react-flow__edge-text")).toHaveText(["g_test", "g_impl"]);
    await expect(page.getByTestId("problems")).toHaveText("Valid.");
  });

  await test.step("a condition that does not parse marks its edge, and the fix clears it", async () => {
    // Selected from the keyboard (React Flow's edges take focus and Enter): its label may sit under a node.
    const edge = page.getByRole("group", { name: "Edge from implementing to done" });
    await edge.focus();
    await edge.press("Enter");
    await inspector.getByLabel("Condition").fill("g_impl and");
    await expect(page.locator(".react-flow__edge.transition-problem")).toHaveCount(1);
    await expect(page.getByTestId("problem").first()).toContainText("transitions[1].condition");
    await inspector.getByLabel("Condition").fill("g_impl");
    await expect(page.locator(".react-flow__edge.transition-problem")).toHaveCount(0);
    await expect(page.getByTestId("problems")).toHaveText("Valid.");
  });

  await test.step("save version 1, change the retries, save version 2 and compare them", async () => {
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved as version 1" })).toBeVisible();
    await selectState(page, "implementing");
    await inspector.getByLabel("Max retries").fill("5");
    await expect(page.getByTestId("problems")).toHaveText("Valid.");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved as version 2" })).toBeVisible();
    const compare = page.getByRole("region", { name: "Compare versions" });
    await expect(compare.getByLabel("Older version")).toHaveValue("1");
    await expect(compare.getByLabel("Newer version")).toHaveValue("2");
    await expect(compare.locator('[data-testid="diff-state"][data-state="implementing"]')).toHaveAttribute("data-change", "changed");
    await expect(compare.locator('[data-testid="diff-state"][data-state="writing_tests"]')).toHaveAttribute("data-change", "unchanged");
    await expect(compare.getByTestId("version-changes")).toContainText("step implement changed: max_retries");
    await expect(compare.getByTestId("yaml-diff").locator('[data-kind="added"]')).toContainText(["max_retries: 5"]);
  });

  await test.step("Run replays a cassette file: a wrong one is refused naming the step, the right one starts the run", async () => {
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Specification").fill(SPECIFICATION);
    await dialog.getByLabel("Replay a cassette file").check();
    const misspelt = CASSETTE.toString("utf8").replace('"write_tests"', '"write_test"');
    await dialog.getByLabel("Cassette file", { exact: true }).setInputFiles({ name: "wrong.cassette.json", mimeType: "application/json", buffer: Buffer.from(misspelt) });
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(dialog.getByRole("alert")).toContainText(`steps.write_test: workflow "${name}" has no step "write_test"`);
    await dialog.getByLabel("Cassette file", { exact: true }).setInputFiles({ name: "tdd-designed.cassette.json", mimeType: "application/json", buffer: CASSETTE });
    await dialog.getByRole("button", { name: "Start run" }).click();
    await page.waitForURL(/\/runs\/[^/]+$/);
  });

  const runId = new URL(page.url()).pathname.split("/").pop()!;

  await test.step("the live view reaches success: the tests once, the implementation twice", async () => {
    await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("succeeded", { timeout: 60_000 });
    await expect(page.getByTestId("attempt")).toHaveCount(3);
    await expect(page.getByTestId("state-machine").locator('[data-testid="state-node"][data-state="done"]')).toHaveAttribute("data-current", "true");
  });

  await test.step("provenance: the attempt chain and the dependency edge, then one artifact's lineage", async () => {
    await page.getByRole("link", { name: "Provenance" }).click();
    await page.waitForURL(`**/runs/${runId}/provenance`);
    const nodes = page.getByTestId("provenance-node");
    await expect(nodes).toHaveCount(3);
    await expect(nodes.filter({ hasText: "implement · attempt 1" })).toHaveAttribute("data-tone", "failed");
    await expect(nodes.filter({ hasText: "implement · attempt 2" })).toHaveAttribute("data-tone", "passed");
    await expect(page.locator(".react-flow__edge.provenance-edge-refinement")).toHaveCount(1);
    await expect(page.locator(".react-flow__edge.provenance-edge-dependency")).toHaveCount(2);

    await nodes.filter({ hasText: "implement · attempt 2" }).click();
    await page.getByTestId("provenance-details").getByRole("link", { name: "Ancestors and descendants" }).click();
    await page.waitForURL(`**/runs/${runId}/provenance/*`);
    const cameFrom = page.getByTestId("lineage-incoming");
    await expect(cameFrom.locator('[data-kind="refinement"]')).toHaveText("refines: implement · attempt 1 (failed)");
    await expect(cameFrom.locator('[data-kind="dependency"]')).toHaveText("guard depended on (test): write_tests · attempt 1 (passed)");
    await expect(page.getByTestId("lineage-canvas").getByTestId("provenance-node")).toHaveCount(3);
  });

  await test.step("the provenance downloads as a git bundle", async () => {
    const download = await page.request.get(`/api/runs/${runId}/provenance/git`);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-disposition"]).toContain(`run-${runId}.bundle`);
    expect((await download.body()).toString("latin1")).toMatch(/^# v[23] git bundle\n/);
  });

  expect(errors).toEqual([]);
});
