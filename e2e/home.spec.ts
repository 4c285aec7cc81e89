import { expect, test, type APIRequestContext } from "@playwright/test";

/** A tRPC v11 HTTP response body with the superjson transformer (either field is set). */
interface TRPCBody {
  result?: { data: { json: { id: string } } };
  error?: { json: { message: string; data: { zodError: { fieldErrors: Record<string, string[]> } | null } } };
}

/** Calls a tRPC mutation the way the client does without batching: superjson wraps input as {json}. */
async function mutate(request: APIRequestContext, path: string, input: unknown) {
  const response = await request.post(`/api/trpc/${path}`, { data: { json: input } });
  return { response, body: (await response.json()) as TRPCBody };
}

test("a first start lists the bundled examples, then a run created through the API", async ({ page, request }) => {
  // Hydration mismatches and client-side exceptions surface here rather than as a visible failure.
  const browserErrors: string[] = [];
  page.on("pageerror", (error) => browserErrors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") browserErrors.push(message.text());
  });

  await test.step("the new database holds the four examples and no runs yet", async () => {
    await page.goto("/");
    await expect(page.getByRole("banner")).toContainText("Dualstate");
    for (const example of ["tdd-lru-cache", "prime-validator", "sandbox-escalation", "agent-loop"]) {
      await expect(page.getByTestId("workflow-row").filter({ hasText: example })).toHaveCount(1);
    }
    await expect(page.getByTestId("empty-state")).toHaveCount(0);
    await expect(page.getByTestId("runs-empty")).toBeVisible();
    // No runs yet: the overview opens with the first-run guide in full, its run button first.
    await expect(page.getByTestId("first-run-guide")).toContainText("Welcome to Dualstate");
    await expect(page.getByTestId("guide-step-run").getByRole("button", { name: "Run the example" })).toBeVisible();
  });

  const workflowName = `e2e-workflow-${Date.now()}`;
  const specification = "Write a function that adds two numbers.";

  await test.step("create a workflow and a run over HTTP", async () => {
    // A small runnable workflow: a code step (in the sandbox) sets the flag the transition waits for.
    const workflow = await mutate(request, "workflow.create", {
      definition: {
        name: workflowName,
        description: "Created by the end-to-end test",
        context: { checked: false },
        state_machine: { states: ["start", "done"], initial_state: "start", final_states: ["done"], transitions: [{ from: "start", to: "done", condition: "checked" }] },
        steps: [{ name: "check", type: "code", in_state: "start", code: "context.checked = true" }],
      },
    });
    expect(workflow.response.status()).toBe(200);
    const workflowId = workflow.body.result?.data.json.id ?? "";

    const run = await mutate(request, "run.create", { workflowId, specification });
    expect(run.response.status()).toBe(200);
    expect(run.body.result?.data.json.id).toEqual(expect.any(String));
  });

  await test.step("the overview lists the workflow and the run, which the embedded worker executes", async () => {
    await page.reload();
    await expect(page.getByTestId("empty-state")).toHaveCount(0);
    await expect(page.getByTestId("workflow-row").filter({ hasText: workflowName })).toContainText("1 run");

    const runRow = page.getByTestId("run-row").filter({ hasText: workflowName });
    await expect(runRow).toHaveCount(1);
    await expect(runRow).toContainText(specification);
    await expect(runRow).toContainText("just now");
    const status = runRow.getByTestId("run-status");
    await expect(async () => {
      await page.reload();
      await expect(status).toHaveText("succeeded", { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    // Tailwind's classes made it into the CSS: the badge has a background colour.
    const background = await status.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(background).not.toBe("rgba(0, 0, 0, 0)");
  });

  expect(browserErrors).toEqual([]);
});

test("invalid input gets a 400 naming the field and no stack trace", async ({ request }) => {
  const { response, body } = await mutate(request, "run.create", { workflowId: "any", specification: "   " });

  expect(response.status()).toBe(400);
  expect(body.error?.json.message).toContain("specification");
  expect(body.error?.json.data.zodError?.fieldErrors.specification).toEqual(["must not be empty"]);
  expect(JSON.stringify(body)).not.toMatch(/stack|\bat .+:\d+:\d+/);
});

test("an unknown workflow gets a 404 naming its id", async ({ request }) => {
  const { response, body } = await mutate(request, "run.create", { workflowId: "no-such-workflow", specification: "x" });

  expect(response.status()).toBe(404);
  expect(body.error?.json.message).toContain("no-such-workflow");
});

test("an unknown page shows the not-found page", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});
