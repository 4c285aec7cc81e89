import { expect, test } from "@playwright/test";
import { collectBrowserErrors } from "./support/browser-errors";

type TrpcResult<T> = { result: { data: { json: T } } };

// llm → code → transition, replayed from a cassette: the transition's first answer is outside its
// map (retried with feedback), its second chooses "ship".
const CASSETTE = JSON.stringify({ format: "dualstate-cassette/1", steps: { observe: ["The repository has no tests yet."], decide: ["maybe", "Ship"] } });

test("an llm, a code and a transition step show their outputs, the retry and the decision on the run page, and their artifacts in provenance", async ({ page, request }) => {
  test.setTimeout(120_000);
  const browserErrors = collectBrowserErrors(page);
  const name = `step-outputs-${Date.now()}`;
  const saved = await request.post("/api/trpc/workflow.save", {
    data: {
      json: {
        definition: {
          name,
          description: "Outputs of llm, code and transition steps",
          specification: "Look at the repository",
          language: "javascript",
          context: { score: 0 },
          state_machine: { states: ["observing", "scoring", "deciding", "done"], initial_state: "observing", final_states: ["done"], transitions: [] },
          steps: [
            { name: "observe", type: "llm", in_state: "observing", prompt: { task: "Observe: {specification}" }, transition_to: "scoring" },
            { name: "score", type: "code", in_state: "scoring", code: "context.score = context.score + 2;", transition_to: "deciding" },
            { name: "decide", type: "transition", in_state: "deciding", prompt: { task: "Answer ship or again" }, max_retries: 1, transition_map: { ship: "done", again: "observing" } },
          ],
        },
      },
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const workflowId = ((await saved.json()) as TrpcResult<{ id: string }>).result.data.json.id;
  const created = await request.post("/api/trpc/run.create", { data: { json: { workflowId, generator: "replay", cassette: CASSETTE } } });
  expect(created.status(), await created.text()).toBe(200);
  const runId = ((await created.json()) as TrpcResult<{ id: string }>).result.data.json.id;

  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("succeeded", { timeout: 60_000 });

  const stepRun = (step: string) => page.locator(`[data-testid="step-attempts"][data-step="${step}"]`).getByTestId("step-run");

  await test.step("each step's output and the state it ran in", async () => {
    await expect(stepRun("observe").getByTestId("step-run-output")).toHaveText("The repository has no tests yet.");
    await expect(stepRun("observe").getByTestId("step-run-state")).toContainText("observing");
    await expect(stepRun("score").getByTestId("step-run-updates")).toContainText("score = 2");
    await expect(stepRun("score").getByTestId("step-run-output")).toHaveText('{"score":2}');
  });

  await test.step("the transition's retry with its reason, and its decision", async () => {
    const decide = stepRun("decide");
    await expect(decide.getByTestId("step-run-failed-attempts")).toContainText('got the answer "maybe", which is not one of "ship", "again"');
    await expect(decide.getByTestId("step-run-output")).toHaveText("ship");
    await expect(decide.getByTestId("step-run-choice")).toHaveText("Chose ship → state done");
  });

  await test.step("the machine's path follows the states the steps ran in", async () => {
    const machine = page.getByTestId("state-machine");
    for (const state of ["observing", "scoring", "deciding", "done"]) await expect(machine.locator(`[data-testid="state-node"][data-state="${state}"]`)).toHaveAttribute("data-visited", "true");
  });

  await test.step("provenance lists each output as an artifact of its step type, the failed answer chained to the accepted one", async () => {
    await page.getByRole("link", { name: "Provenance", exact: true }).click();
    await page.waitForURL(`**/runs/${runId}/provenance`);
    const nodes = page.getByTestId("provenance-node");
    await expect(nodes).toHaveCount(4);
    await expect(nodes.filter({ hasText: "observe · attempt 1" })).toHaveAttribute("data-step-kind", "llm");
    await expect(nodes.filter({ hasText: "score · attempt 1" })).toHaveAttribute("data-step-kind", "code");
    await expect(nodes.filter({ hasText: "decide · attempt 1" })).toHaveAttribute("data-tone", "failed");
    await expect(nodes.filter({ hasText: "decide · attempt 2" })).toHaveAttribute("data-step-kind", "transition");
    await expect(nodes.filter({ hasText: "decide · attempt 2" })).toContainText("transition: decision");
    await expect(page.locator(".react-flow__edge.provenance-edge-refinement")).toHaveCount(1);
    await nodes.filter({ hasText: "observe · attempt 1" }).click();
    await expect(page.getByTestId("provenance-details").getByTestId("code-block")).toContainText("The repository has no tests yet.");
  });

  expect(browserErrors).toEqual([]);
});
