import { expect, type APIRequestContext } from "@playwright/test";
import { ASKING_TOOL } from "./fake-model-asks";

type TrpcResult<T> = { result: { data: { json: T } } };

export interface StartedQuestion {
  readonly workflow: string;
  readonly runId: string;
  readonly callId: string;
}

/**
 * A real run that asks a person: a workflow whose agent step has a person tool (ASKING_TOOL),
 * saved and started through the API like any other; the e2e fake model calls the tool with
 * `question` (e2e/support/fake-model-asks.ts), the run suspends on the call, and the question
 * reaches the review queue. Resolves once it is there.
 */
export async function startPersonQuestion(request: APIRequestContext, question: { question: string; answerSchema: object; specification: string }): Promise<StartedQuestion> {
  const workflow = `tool-question-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const saved = await request.post("/api/trpc/workflow.save", {
    data: {
      json: {
        definition: {
          name: workflow,
          description: "An agent that asks its owner before it writes the code",
          specification: question.specification,
          language: "python",
          tools: {
            [ASKING_TOOL]: {
              kind: "person",
              description: "Ask the owner of the code a question and wait for the answer",
              input_schema: { type: "object", properties: { question: { type: "string" } }, required: ["question"] },
              answer_schema: question.answerSchema,
              timeout: "2h",
            },
          },
          state_machine: { states: ["implementing", "done"], initial_state: "implementing", final_states: ["done"], transitions: [{ from: "implementing", to: "done", condition: "g_impl" }] },
          steps: [
            {
              name: "implement",
              in_state: "implementing",
              guard_id: "g_impl",
              generator: { kind: "agent", tools: [ASKING_TOOL] },
              prompt: { task: `ASK: ${question.question}\nImplement {specification}` },
              guards: [{ kind: "syntax" }],
            },
          ],
        },
      },
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const workflowId = ((await saved.json()) as TrpcResult<{ id: string }>).result.data.json.id;
  const created = await request.post("/api/trpc/run.create", { data: { json: { workflowId } } });
  expect(created.status(), await created.text()).toBe(200);
  const runId = ((await created.json()) as TrpcResult<{ id: string }>).result.data.json.id;
  let callId: string | undefined;
  await expect
    .poll(
      async () => {
        const listed = await request.get("/api/trpc/toolCall.questions");
        const items = ((await listed.json()) as TrpcResult<{ items: { runId: string; callId: string }[] }>).result.data.json.items;
        callId = items.find((item) => item.runId === runId)?.callId;
        return callId !== undefined;
      },
      { timeout: 60_000, message: `run ${runId} to ask its question` },
    )
    .toBe(true);
  return { workflow, runId, callId: callId! };
}
