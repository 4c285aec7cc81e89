import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

// Two versions of one workflow: v1 retries once (the cassette's second attempt parses), v2 does
// not retry, so the same cassette fails every case: the comparison must call it a regression.
const workflowDocument = (maxRetries: number) => `
name: e2e-experiment-adder
specification: Write add(a, b)
language: javascript
state_machine:
  states: [writing, done]
  initial_state: writing
  final_states: [done]
  transitions:
    - { from: writing, to: done, condition: g_add }
steps:
  - name: implement
    in_state: writing
    guard_id: g_add
    generator: { kind: llm }
    prompt: "{specification}"
    guards: [{ kind: syntax }]
    max_retries: ${maxRetries}
    on_failure: fail
`;
const CASSETTE = JSON.stringify({ format: "dualstate-cassette/1", steps: { implement: ["function add(a, b) { return a +; }", "function add(a, b) { return a + b; }"] } });
const DATASET = ["Write add(a, b)", "Write add(a, b) for integers", "Write add(a, b) for floats"].map((specification, index) => JSON.stringify({ key: `case-${index + 1}`, specification })).join("\n");

async function trpc(request: APIRequestContext, procedure: string, input: unknown): Promise<unknown> {
  const response = await request.post(`/api/trpc/${procedure}`, { data: { json: input } });
  const body = (await response.json()) as { result?: { data: { json: unknown } }; error?: unknown };
  if (!response.ok() || !body.result) throw new Error(`${procedure}: ${JSON.stringify(body.error ?? body)}`);
  return body.result.data.json;
}

async function runExperiment(page: Page, version: string): Promise<string> {
  await page.goto("/experiments/new");
  const form = page.getByRole("form", { name: "New experiment" });
  await form.getByRole("combobox", { name: "Workflow", exact: true }).selectOption({ label: "e2e-experiment-adder" });
  await form.getByRole("combobox", { name: "Workflow version" }).selectOption({ label: version });
  await form.getByRole("combobox", { name: "Dataset", exact: true }).selectOption({ label: "e2e-adders" });
  await form.getByRole("spinbutton", { name: "Samples per case (k)" }).fill("2");
  await form.getByRole("spinbutton", { name: "Concurrency" }).fill("2");
  await form.getByRole("combobox", { name: "Generation" }).selectOption({ label: "Replay a cassette file" });
  await form.getByLabel("Cassette file", { exact: true }).setInputFiles({ name: "adder.cassette.json", mimeType: "application/json", buffer: Buffer.from(CASSETTE) });
  await form.getByRole("button", { name: "Start experiment" }).click();
  await page.waitForURL(/\/experiments\/[0-9a-f-]+$/);
  // The live page fills in: the bar reaches the end and the experiment completes.
  await expect(page.getByTestId("experiment-progress")).toHaveText("6 of 6 samples ended", { timeout: 60_000 });
  await expect(page.getByTestId("experiment-status")).toHaveText("completed");
  await expect(page.getByRole("progressbar", { name: "Samples ended" })).toHaveAttribute("aria-valuenow", "6");
  await expect(page.getByTestId("experiment-case")).toHaveCount(3);
  return new URL(page.url()).pathname.split("/").pop()!;
}

test("an experiment runs from a cassette over an uploaded dataset, live; a second on another version compares as a regression; the Metrics page counts their runs; a third is cancelled", async ({ page, request }) => {
  test.setTimeout(180_000);
  await trpc(request, "workflow.save", { document: workflowDocument(1) });
  await trpc(request, "workflow.save", { document: workflowDocument(0) });
  // The dataset is uploaded through its page, as a person would.
  await page.goto("/datasets/upload");
  await page.getByLabel("File (JSONL, CSV or YAML)").setInputFiles({ name: "adders.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(DATASET) });
  await page.getByLabel("Dataset name").fill("e2e-adders");
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByTestId("cases-title")).toHaveText("Version 1: 3 cases");

  const baseline = await runExperiment(page, "v1");
  await expect(page.locator('[data-testid="experiment-case"][data-outcome="passed"]')).toHaveCount(3);
  await expect(page.getByTestId("metric-Pass rate")).toContainText("100.0%");
  await expect(page.getByTestId("metric-First-attempt pass rate")).toHaveText("0.0%");
  // Each case links to its runs.
  await expect(page.getByTestId("experiment-case").first().getByRole("link")).toHaveCount(2);

  const candidate = await runExperiment(page, "v2");
  await expect(page.locator('[data-testid="experiment-case"][data-outcome="failed"]')).toHaveCount(3);

  await page.goto("/experiments");
  await expect(page.getByTestId("experiments-row")).toHaveCount(2);
  const compare = page.getByRole("form", { name: "Compare experiments" });
  await compare.getByRole("combobox", { name: "Baseline" }).selectOption(baseline);
  await compare.getByRole("combobox", { name: "Candidate" }).selectOption(candidate);
  await compare.getByRole("button", { name: "Compare" }).click();
  await page.waitForURL(/\/experiments\/compare\?a=/);
  await expect(page.getByTestId("comparison-verdict")).toContainText("Regression");
  await expect(page.locator('[data-testid="comparison-case"][data-change="newly_failing"]')).toHaveCount(3);
  await expect(page.getByTestId("comparison-counts")).toHaveText("3 newly failing, 0 newly passing, 0 now escalating, 0 unchanged");
  await expect(page.getByTestId("comparison-delta").first()).toContainText("exceeds noise for 6 and 6 samples");
  await expect(page.getByRole("img", { name: "Rates" })).toBeVisible();

  // The same comparison from the baseline's own page: "Compare with…" offers its dataset's experiments.
  await page.goto(`/experiments/${baseline}`);
  await page.getByRole("link", { name: "Compare with…" }).click();
  const picker = page.getByRole("form", { name: "Choose the candidate" });
  await picker.getByRole("combobox", { name: "Candidate" }).selectOption(candidate);
  await picker.getByRole("button", { name: "Compare" }).click();
  await expect(page.getByTestId("comparison-verdict")).toContainText("Regression");

  // The Metrics page counts the two experiments' runs of this workflow (3 cases × k=2, twice), and
  // ranks the syntax guard's verdict on the cassette's broken first answer (one per run) first.
  await page.goto("/insights");
  await page.getByRole("radio", { name: "24 hours" }).click();
  await page.getByRole("combobox", { name: /Workflow/ }).selectOption({ label: "e2e-experiment-adder" });
  await expect(page.getByTestId("metrics-window")).toContainText("e2e-experiment-adder, runs created since");
  await expect(page.getByTestId("metric-runs")).toHaveText("12");
  await expect(page.getByTestId("failure-reason").first()).toHaveAttribute("data-guard", "g_add");
  await expect(page.getByTestId("failure-reason").first()).toHaveAttribute("data-count", "12");

  // A third, replayed with the cassette's long pauses, is cancelled while its first runs wait.
  await page.goto("/experiments/new");
  const form = page.getByRole("form", { name: "New experiment" });
  await form.getByRole("combobox", { name: "Workflow", exact: true }).selectOption({ label: "e2e-experiment-adder" });
  await form.getByRole("combobox", { name: "Generation" }).selectOption({ label: "Replay a cassette file" });
  const slow = JSON.stringify({ format: "dualstate-cassette/1", steps: { implement: [{ content: "function add(a, b) { return a + b; }", delay_ms: 60_000 }] } });
  await form.getByLabel("Cassette file", { exact: true }).setInputFiles({ name: "slow.cassette.json", mimeType: "application/json", buffer: Buffer.from(slow) });
  await form.getByLabel("Replay without the cassette's pauses").uncheck();
  await form.getByRole("button", { name: "Start experiment" }).click();
  await page.waitForURL(/\/experiments\/[0-9a-f-]+$/);
  await expect(page.getByTestId("experiment-status")).toHaveText("running");
  await page.getByRole("button", { name: "Cancel experiment" }).click();
  await page.getByRole("dialog", { name: "Cancel this experiment?" }).getByRole("button", { name: "Yes, cancel the experiment" }).click();
  await expect(page.getByTestId("experiment-status")).toHaveText("cancelled");
  await expect(page.getByTestId("experiment-progress")).toHaveText("3 of 3 samples ended", { timeout: 30_000 });
  await expect(page.getByTestId("metric-Pass rate")).toHaveText("–");
});
