import { expect, type APIRequestContext } from "@playwright/test";

export const RUN_TIMEOUT = 60_000;

type TrpcResult<T> = { result: { data: { json: T } } };

/** A tRPC query's result over HTTP, as another system would read it. */
export async function trpcQuery<T>(request: APIRequestContext, path: string, input: unknown): Promise<T> {
  const response = await request.get(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as TrpcResult<T>).result.data.json;
}

/** Starts the escalating example with the replay generator through the API, as another system would. */
export async function startEscalatingRun(request: APIRequestContext, specification: string): Promise<string> {
  const { id: workflowId } = await trpcQuery<{ id: string }>(request, "workflow.get", { name: "sandbox-escalation" });
  const created = await request.post("/api/trpc/run.create", { data: { json: { workflowId, specification, generator: "replay" } } });
  expect(created.status(), await created.text()).toBe(200);
  return ((await created.json()) as TrpcResult<{ id: string }>).result.data.json.id;
}

/** The pending escalation a run stopped on, once its security guard has escalated. */
export async function pendingEscalationOf(request: APIRequestContext, runId: string): Promise<{ id: string; contentHash: string }> {
  let found: { id: string; contentHash: string } | undefined;
  await expect(async () => {
    const { items } = await trpcQuery<{ items: { id: string; runId: string; contentHash: string }[] }>(request, "escalation.list", { status: "pending", sort: "newest" });
    found = items.find((item) => item.runId === runId);
    expect(found).toBeDefined();
  }).toPass({ timeout: RUN_TIMEOUT });
  return found!;
}
