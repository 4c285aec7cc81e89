import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/server/env";
import { TEST_PROVIDERS } from "@/server/persistence/testing/test-database";
import { saveModelPrice } from "@/server/services/prices/model-prices";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "@/server/testing/fake-openai-server";
import { until } from "@/server/testing/until";
import { callUsageOf } from "@/server/usage/call-usage";
import { recordedCostUsd } from "@/server/usage/call-cost";
import { parseBudgetSpec, readRunBudget, type RunBudget } from "@/server/usage/budget";
import { createDurableFixture, type DurableFixture } from "@/server/worker/testing/durable-fixture";
import { promptOf, tddModel } from "@/server/worker/testing/tdd-model";
import { startWorker, type StartedWorker } from "@/server/worker/worker-from-env";
import { saveWorkflowDefinition } from "@/server/services/workflows/save-definition";
import type { WorkflowDefinition } from "@/server/workflows/definition";
import { main } from "@/server/cli/main";
import { formatTokens, formatUsd } from "@/server/usage/format-usage";
import { validateWorkflowDocument } from "@/server/workflows/definition";
import { decideEscalation } from "@/server/services/escalations/decide-escalation";
import { decideBudgetEscalation } from "./decide-budget-escalation";
import { readRunUsage } from "./run-usage";

/** One agent step judged by an LLM: the agent's model turns and the judge's call are all model calls. */
const AGENT_AND_JUDGE = `workflow:
  name: agent-and-judge
  specification: add two numbers
  language: python
  state_machine: { states: [writing, done], initial_state: writing, final_states: [done], transitions: [{ from: writing, to: done, condition: g_add }] }
  steps:
    - name: write_add
      type: action_pair
      in_state: writing
      guard_id: g_add
      generator: { kind: agent, max_turns: 3 }
      prompt: "{specification}"
      guards: [ { kind: syntax }, { kind: llm_judge, rubric: "adds two numbers" } ]
`;
const isJudgeRequest = (body: Record<string, unknown>) => JSON.stringify(body.messages).includes("# RUBRIC");

const ADMIN = { id: "admin", email: "admin@example.com", role: "admin", via: "session" } as const;
const MODEL = "priced-model";
// The fake server counts 10 prompt tokens per call and one completion token per character.
const PRICE = { model: MODEL, inputUsdPerMillion: 3, outputUsdPerMillion: 15 };

function budget(spec: Record<string, unknown>): RunBudget {
  const parsed = parseBudgetSpec(spec);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.budget;
}

/**
 * Runs of the tdd-lru-cache example against a real OpenAI-compatible server (streamed calls, the
 * usage chunk included) and a real worker: what each call's record says it used and cost, what
 * the run's totals say, and what budgets do.
 */
describe.each(TEST_PROVIDERS)("usage, cost and budgets on %s", (provider) => {
  let fixture: DurableFixture;
  let model: FakeOpenAiServer;
  let worker: StartedWorker;

  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    model = await startFakeOpenAiServer([], { models: [MODEL] });
    model.setResponder(tddModel());
    await saveModelPrice(fixture.database.db, PRICE, ADMIN);
    const env = parseEnv({ DATABASE_URL: fixture.database.url, OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: "test", OPENAI_MODEL: MODEL });
    worker = startWorker(env, { concurrency: 1 });
  });
  afterAll(async () => {
    await worker?.stop(1_000);
    await model?.close();
    await fixture?.dispose();
  });

  const db = () => fixture.database.db;
  async function cli(...argv: string[]) {
    const out: string[] = [];
    const code = await main(argv, { DATABASE_URL: fixture.database.url } as Record<string, string> as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: (text) => void out.push(text) });
    return { code, out: out.join("\n") };
  }
  const runIn = (runId: string, statuses: string[]) =>
    until(async () => {
      const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
      return statuses.includes(run.status) ? run : undefined;
    });
  const start = (runBudget?: RunBudget) =>
    fixture.store.enqueueRun({ workflowVersionId: fixture.versions["tdd-lru-cache"]!, specification: "LRU cache", ...(runBudget ? { budget: runBudget } : {}) });
  /** Each recorded model call's result payload, in order. */
  const recordedCalls = async (runId: string) =>
    (await db().ledgerEntry.findMany({ where: { runId, type: "action_result" }, orderBy: { seq: "asc" }, select: { payload: true } })).map((entry) => entry.payload as Record<string, unknown>);
  const sums = (calls: Record<string, unknown>[]) => ({
    promptTokens: calls.reduce((sum, call) => sum + (callUsageOf(call)?.promptTokens ?? 0), 0),
    completionTokens: calls.reduce((sum, call) => sum + (callUsageOf(call)?.completionTokens ?? 0), 0),
    costUsd: calls.reduce((sum, call) => sum + recordedCostUsd(call), 0),
  });

  it("records each streamed call's usage and its cost at today's price, and the run's totals are their sums", async () => {
    const before = model.requests.length;
    const { runId } = await start();
    expect((await runIn(runId, ["succeeded", "failed"])).status).toBe("succeeded");
    const sent = model.requests.slice(before);
    // Streamed, asking for the usage chunk: the usage below came from it.
    expect(sent.every((body) => body.stream === true && (body.stream_options as { include_usage?: boolean }).include_usage === true)).toBe(true);

    const calls = await recordedCalls(runId);
    expect(calls).toHaveLength(sent.length);
    for (const call of calls) {
      const usage = callUsageOf(call)!;
      expect(usage.promptTokens).toBe(10);
      expect(usage.completionTokens).toBe(String(call.content).length);
      expect(call.cost).toEqual({ priced: true, usd: expect.any(Number), model: MODEL, inputUsdPerMillion: 3, outputUsdPerMillion: 15 });
      expect((call.cost as { usd: number }).usd).toBeCloseTo((10 * 3 + usage.completionTokens * 15) / 1e6, 12);
    }
    const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
    const expected = sums(calls);
    expect(run.promptTokens).toBe(expected.promptTokens);
    expect(run.completionTokens).toBe(expected.completionTokens);
    expect(run.costUsd).toBeCloseTo(expected.costUsd, 9);
    expect(run.costUsd).toBeGreaterThan(0);

    // `dualstate runs show` says the same, for the run and for each step.
    const shown = await cli("runs", "show", runId);
    expect(shown.code).toBe(0);
    const tokens = run.promptTokens + run.completionTokens;
    expect(shown.out).toContain(`  usage: ${formatTokens(tokens)} tokens (${formatTokens(run.promptTokens)} prompt, ${formatTokens(run.completionTokens)} completion), ${formatUsd(run.costUsd)}`);
    expect(shown.out).toMatch(/^ {4}write_tests: \d[\d,]* tokens/m);
    expect(shown.out).toMatch(/^ {2}implement attempt 1: failed \(\d[\d,]* tokens/m);

    // A later price does not rewrite what the calls cost.
    await saveModelPrice(db(), { ...PRICE, inputUsdPerMillion: 300 }, ADMIN);
    expect(sums(await recordedCalls(runId)).costUsd).toBeCloseTo(expected.costUsd, 9);
    await saveModelPrice(db(), PRICE, ADMIN);
  });

  it("fails a run at once when it reaches a budget whose on_exceed is fail, before the call that would pass it", async () => {
    const before = model.requests.length;
    // The first call (the tests) spends far more than 20 tokens; the second is never made.
    const { runId } = await start(budget({ tokens: 20, on_exceed: "fail" }));
    const run = await runIn(runId, ["succeeded", "failed"]);
    expect(run.status).toBe("failed");
    expect(JSON.stringify(run.finalResult)).toMatch(/The run reached its budget: spent \d+ tokens of 20/);
    expect(model.requests.length - before).toBe(1);
    expect(run.promptTokens + run.completionTokens).toBe(sums(await recordedCalls(runId)).promptTokens + sums(await recordedCalls(runId)).completionTokens);
  });

  it("suspends on a budget escalation; a grant raises the budget and the resumed run counts no call twice", async () => {
    const { runId } = await start(budget({ tokens: 20, usd: 10 }));
    await runIn(runId, ["suspended"]);
    const escalation = await db().escalation.findFirstOrThrow({ where: { runId, status: "pending" } });
    expect(escalation).toMatchObject({ kind: "budget", artifactId: null, decisionKey: "budget/1" });
    expect(escalation.feedback).toMatch(/spent \d+ tokens of 20 and \$0\.\d+ of \$10\.00/);
    const suspended = await db().run.findUniqueOrThrow({ where: { id: runId } });
    const shown = await cli("escalations", "show", escalation.id);
    expect(shown.out).toContain(`Escalation ${escalation.id} (budget): pending`);
    expect(shown.out).toMatch(/tokens {5}\d[\d,]* of 20\n/);
    // It has no attempt to approve: the guard decision is refused by name.
    await expect(decideEscalation(db(), ADMIN, { escalationId: escalation.id, contentHash: "0".repeat(64), decision: "approve" })).rejects.toThrow("decision: this is a budget escalation");
    const callsBefore = model.requests.length;

    // A grant names the field it gets wrong.
    await expect(decideBudgetEscalation(db(), ADMIN, { escalationId: escalation.id, grant: { tokens: -5 } })).rejects.toThrow(/^tokens: /);
    const outcome = await decideBudgetEscalation(db(), ADMIN, { escalationId: escalation.id, grant: { tokens: 1_000_000 }, comment: "go on" });
    expect(outcome).toMatchObject({ status: "approved", runId });
    const run = await runIn(runId, ["succeeded", "failed"]);
    expect(run.status).toBe("succeeded");
    expect(readRunBudget(run.budget)).toMatchObject({ tokens: 20, grants: [{ tokens: 1_000_000, usd: 0, by: ADMIN.email }] });

    // The resumed turn read the first call back from the ledger: it was neither made nor counted again.
    const calls = await recordedCalls(runId);
    expect(model.requests.length - callsBefore).toBe(calls.length - 1);
    const totals = sums(calls);
    expect(run.promptTokens).toBe(totals.promptTokens);
    expect(run.completionTokens).toBe(totals.completionTokens);
    expect(run.costUsd).toBeCloseTo(totals.costUsd, 9);
    expect(run.promptTokens).toBeGreaterThan(suspended.promptTokens);
    const audit = await db().auditEvent.findFirstOrThrow({ where: { target: `escalation:${escalation.id}` } });
    expect(audit.detail).toMatchObject({ decision: "approve", budget: { grants: [{ tokens: 1_000_000 }] } });
  });

  it("fails the run when a person refuses more budget, saying who", async () => {
    const { runId } = await start(budget({ tokens: 20 }));
    await runIn(runId, ["suspended"]);
    const escalation = await db().escalation.findFirstOrThrow({ where: { runId, status: "pending" } });
    const callsBefore = model.requests.length;
    await decideBudgetEscalation(db(), ADMIN, { escalationId: escalation.id, comment: "too expensive" });
    const run = await runIn(runId, ["succeeded", "failed"]);
    expect(run.status).toBe("failed");
    expect(JSON.stringify(run.finalResult)).toContain("admin@example.com refused more budget: too expensive");
    expect(model.requests.length).toBe(callsBefore);
    await expect(decideBudgetEscalation(db(), ADMIN, { escalationId: escalation.id })).rejects.toThrow(/rejected/);
  });

  it("counts an agent's model turns and an LLM judge's call like any other model call", async () => {
    const validated = validateWorkflowDocument(AGENT_AND_JUDGE, "agent-and-judge.yaml");
    if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
    const saved = await saveWorkflowDefinition(db(), validated.definition);
    model.setResponder((body) => {
      if (isJudgeRequest(body)) return '{"passed": true, "feedback": ""}';
      // The agent's first turn reads its dependencies (a tool call), its second answers.
      const turns = (body.messages as unknown[]).length;
      return turns <= 2 ? { toolCalls: [{ name: "read_dependency", arguments: '{"name": "nothing"}' }] } : "```python\ndef add(a, b):\n    return a + b\n```";
    });
    try {
      const before = model.requests.length;
      const { runId } = await fixture.store.enqueueRun({ workflowVersionId: saved.versionId, specification: "add two numbers" });
      expect((await runIn(runId, ["succeeded", "failed"])).status).toBe("succeeded");
      const sent = model.requests.slice(before);
      expect(sent.filter(isJudgeRequest)).toHaveLength(1);
      expect(sent.filter((body) => !isJudgeRequest(body))).toHaveLength(2);

      const keyed = await db().ledgerEntry.findMany({ where: { runId, type: "action_result" }, orderBy: { seq: "asc" }, select: { callKey: true, payload: true } });
      const modelCalls = keyed.filter((entry) => callUsageOf(entry.payload) !== null);
      // Two agent turns and one judge, each with its usage and its priced cost; the tool's result has none.
      expect(modelCalls).toHaveLength(3);
      expect(modelCalls.filter((entry) => entry.callKey?.endsWith("/judge"))).toHaveLength(1);
      for (const entry of modelCalls) expect((entry.payload as { cost?: { priced?: boolean } }).cost?.priced).toBe(true);

      const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
      const totals = sums(modelCalls.map((entry) => entry.payload as Record<string, unknown>));
      expect(run.promptTokens).toBe(totals.promptTokens);
      expect(run.completionTokens).toBe(totals.completionTokens);
      expect(run.costUsd).toBeCloseTo(totals.costUsd, 9);
      // The run page's split: everything under the one step and its first attempt.
      const summary = await readRunUsage(db(), runId);
      expect(summary.byStep.write_add).toMatchObject({ promptTokens: run.promptTokens, completionTokens: run.completionTokens, calls: 3 });
      expect(summary.byAttempt["write_add/attempt-1"]?.calls).toBe(3);
    } finally {
      model.setResponder(tddModel());
    }
  });

  it("applies the workflow document's budget to runs started without their own", async () => {
    const before = model.requests.length;
    const definition = (await db().workflowVersion.findUniqueOrThrow({ where: { id: fixture.versions["tdd-lru-cache"]! } })).definition as unknown as WorkflowDefinition;
    const saved = await saveWorkflowDefinition(db(), { ...definition, name: "tdd-lru-cache-budgeted", budget: { tokens: 20, on_exceed: "fail" } });
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: saved.versionId, specification: "LRU cache" });
    const run = await runIn(runId, ["succeeded", "failed"]);
    expect(readRunBudget(run.budget)).toEqual({ tokens: 20, usd: null, onExceed: "fail", grants: [] });
    expect(run.status).toBe("failed");
    expect(model.requests.length - before).toBe(1);
    expect(promptOf(model.requests.at(-1)!)).toContain("Write tests for");
  });
});
