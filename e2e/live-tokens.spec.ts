import { expect, test } from "@playwright/test";
import { FAKE_MODEL_REPLY } from "./support/fake-model-reply";

type TrpcResult<T> = { result: { data: { json: T } } };

test("a run with the configured model shows the model's tokens on its page as they stream, then succeeds", async ({ page, request }) => {
  test.setTimeout(90_000);
  const name = `live-tokens-${Date.now()}`;
  // One llm step: the dashboard's configured model (the fake OpenAI-compatible server of the
  // e2e setup, through the real openai client) writes it, a syntax guard checks it.
  const saved = await request.post("/api/trpc/workflow.save", {
    data: {
      json: {
        definition: {
            name,
            description: "Streams its one generation",
            specification: "Write add(a, b) in Python",
            language: "python",
            state_machine: { states: ["writing", "done"], initial_state: "writing", final_states: ["done"], transitions: [{ from: "writing", to: "done", condition: "g_add" }] },
            steps: [{ name: "write_add", type: "action_pair", in_state: "writing", guard_id: "g_add", generator: { kind: "llm" }, prompt: { task: "{specification}" }, guards: [{ kind: "syntax" }] }],
        },
      },
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const workflowId = ((await saved.json()) as TrpcResult<{ id: string }>).result.data.json.id;
  const created = await request.post("/api/trpc/run.create", { data: { json: { workflowId, generator: "configured" } } });
  expect(created.status(), await created.text()).toBe(200);
  const runId = ((await created.json()) as TrpcResult<{ id: string }>).result.data.json.id;

  await page.goto(`/runs/${runId}`);
  const live = page.getByTestId("live-call");
  await expect(live).toHaveAttribute("data-step", "write_add", { timeout: 30_000 });
  // Part of the reply is on screen before the whole of it: the text grows while the call runs.
  const text = page.getByTestId("live-call-text");
  await expect(text).toContainText("def add(a, b):");
  const partial = (await text.textContent()) ?? "";
  expect(partial.length).toBeLessThan(FAKE_MODEL_REPLY.length);
  expect(FAKE_MODEL_REPLY.startsWith(partial)).toBe(true);

  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("succeeded", { timeout: 30_000 });
  // Cleared once the result is recorded: the panel is gone, the ledger holds the model call.
  await expect(live).toHaveCount(0);
  await expect(page.getByTestId("ledger-row").filter({ hasText: "fake-e2e-model" }).first()).toBeVisible();
});
