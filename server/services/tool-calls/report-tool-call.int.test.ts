import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { createTRPCContext, type Actor } from "@/server/api/trpc";
import { TEST_PROVIDERS } from "@/server/persistence/testing/test-database";
import { pairDurableStore } from "@/server/services/durable-store-for";
import { createDurableFixture, type DurableFixture } from "@/server/worker/testing/durable-fixture";
import { answerPersonCall } from "./answer-person-call";
import { listPendingPersonCalls } from "./person-calls";
import { reportToolCall } from "./report-tool-call";
import { RESULT_CHECK_TIMEOUT_MS } from "./check-result-schema";
import { MAX_RESULT_BYTES } from "./result-bounds";
import { waitingRun } from "./testing/waiting-run";

const ada: Actor = { id: "u-ada", email: "ada@example.test", role: "reviewer", via: "session" };
const bob: Actor = { id: "u-bob", email: "bob@example.test", role: "admin", via: "token" };
const vic: Actor = { id: "u-vic", email: "vic@example.test", role: "viewer", via: "token" };

const DEPLOY_SCHEMA = {
  type: "object",
  properties: { status: { type: "string", enum: ["deployed", "failed"] }, count: { type: "integer" }, url: { type: "string", pattern: "^(a+)+$" } },
  required: ["status"],
  additionalProperties: false,
};
const ANSWER_SCHEMA = { type: "object", properties: { approved: { type: "boolean" }, note: { type: "string" } }, required: ["approved"] };

describe.each(TEST_PROVIDERS)("reporting tool results and answering questions on %s", (provider) => {
  let fixture: DurableFixture;
  const as = (actor: Actor | null) => createCaller(createTRPCContext({ db: fixture.database.db, actor }));
  const waitOf = (id: string) => fixture.database.db.toolWait.findUniqueOrThrow({ where: { id } });

  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    pairDurableStore(fixture.database.db, fixture.store);
  });
  afterAll(async () => {
    await fixture.dispose();
  });

  it("refuses an unknown run, an unknown call, and a call of another run, each by name (404)", async () => {
    const { runId, callIds } = await waitingRun(fixture, [{ kind: "external" }]);
    const other = await waitingRun(fixture, [{ kind: "external" }]);
    await expect(reportToolCall(fixture.database.db, { runId: "no-such-run", callId: callIds[0]!, result: {} }, ada)).rejects.toMatchObject({ code: "NOT_FOUND", message: 'Run "no-such-run" was not found' });
    await expect(reportToolCall(fixture.database.db, { runId, callId: "no-such-call", result: {} }, ada)).rejects.toMatchObject({ code: "NOT_FOUND", message: `Run "${runId}" has no tool call "no-such-call"` });
    await expect(reportToolCall(fixture.database.db, { runId, callId: other.callIds[0]!, result: {} }, ada)).rejects.toMatchObject({ code: "NOT_FOUND", message: `Run "${runId}" has no tool call "${other.callIds[0]}"` });
    await expect(as(ada).toolCall.report({ runId, callId: "no-such-call", result: {} })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses to report a person's question or a sub-run's result (409), pointing at where they are answered", async () => {
    const { runId, callIds } = await waitingRun(fixture, [{ kind: "person", question: "Deploy?", resultSchema: ANSWER_SCHEMA }, { kind: "workflow" }]);
    await expect(reportToolCall(fixture.database.db, { runId, callId: callIds[0]!, result: { approved: true } }, ada)).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("answer it in the review queue") });
    await expect(reportToolCall(fixture.database.db, { runId, callId: callIds[1]!, result: {} }, ada)).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("sub-run") });
    await expect(answerPersonCall(fixture.database.db, { callId: callIds[1]!, answer: {} }, ada)).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("not a question for a person") });
    expect((await waitOf(callIds[0]!)).status).toBe("waiting");
  });

  it("refuses a result that is not one JSON object, too large or too deep, naming the field and never quoting it", async () => {
    const { runId, callIds } = await waitingRun(fixture, [{ kind: "external" }]);
    const report = (result: unknown) => reportToolCall(fixture.database.db, { runId, callId: callIds[0]!, result }, ada);
    await expect(report([1, 2])).rejects.toMatchObject({ code: "INVALID_INPUT", message: "result: must be one JSON object, not an array" });
    await expect(report("done")).rejects.toMatchObject({ code: "INVALID_INPUT", message: "result: must be one JSON object, not a string" });
    await expect(report(null)).rejects.toMatchObject({ code: "INVALID_INPUT", message: "result: must be one JSON object, not null" });
    await expect(report(undefined)).rejects.toMatchObject({ code: "INVALID_INPUT", message: "result: is missing: send one JSON object" });
    const huge = { log: "x".repeat(MAX_RESULT_BYTES) };
    const refused = await report(huge).catch((error: Error) => error);
    expect(refused).toMatchObject({ code: "INVALID_INPUT", message: expect.stringMatching(/^result: is \d+ bytes of JSON, more than the 256 KiB allowed$/) });
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) deep = { inner: deep };
    await expect(report(deep)).rejects.toMatchObject({ code: "INVALID_INPUT", message: "result: nests deeper than 64 levels" });
    expect((await waitOf(callIds[0]!)).status).toBe("waiting");
  });

  it("checks the result against the wait's schema, naming each field, with patterns on the linear-time engine", async () => {
    const { runId, callIds } = await waitingRun(fixture, [{ kind: "external", resultSchema: DEPLOY_SCHEMA }]);
    const report = (result: unknown) => reportToolCall(fixture.database.db, { runId, callId: callIds[0]!, result }, ada);
    await expect(report({ count: 2 })).rejects.toMatchObject({ code: "INVALID_INPUT", message: "result.status: is required" });
    // Each field at fault, in the order of the schema's properties (which PostgreSQL's jsonb keeps its own way).
    const both = await report({ status: "maybe", count: 1.5 }).catch((error: Error) => error);
    expect(both).toMatchObject({ code: "INVALID_INPUT" });
    expect(both.message.split("; ").sort()).toEqual(["result.count: must be integer", 'result.status: must be one of "deployed", "failed"']);
    await expect(report({ status: "deployed", extra: 1 })).rejects.toMatchObject({ code: "INVALID_INPUT", message: "result.extra: is not a field of this tool's result" });
    // ^(a+)+$ backtracks for ever on a backtracking engine; RE2 answers at once.
    const started = Date.now();
    await expect(report({ status: "deployed", url: `${"a".repeat(50_000)}b` })).rejects.toMatchObject({ code: "INVALID_INPUT", message: "result.url: must match pattern \"^(a+)+$\"" });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((await waitOf(callIds[0]!)).status).toBe("waiting");
  });

  it("checks the result off the event loop: a check that compares every pair (uniqueItems) leaves the server answering", async () => {
    const schema = { type: "object", properties: { builds: { type: "array", uniqueItems: true } } };
    const { runId, callIds } = await waitingRun(fixture, [{ kind: "external", resultSchema: schema }]);
    const builds: number[][] = [];
    for (let i = 0, size = 12; size < MAX_RESULT_BYTES - 4_096; i++, size += String(i).length + 3) builds.push([i]);
    // The longest the event loop waited for a 20 ms timer while the check ran.
    let longestGap = 0;
    let last = Date.now();
    const ticker = setInterval(() => {
      longestGap = Math.max(longestGap, Date.now() - last);
      last = Date.now();
    }, 20);
    const started = Date.now();
    const outcome = await reportToolCall(fixture.database.db, { runId, callId: callIds[0]!, result: { builds } }, ada).catch((error: Error) => error);
    clearInterval(ticker);
    expect(longestGap).toBeLessThan(1_000);
    expect(Date.now() - started).toBeLessThan(RESULT_CHECK_TIMEOUT_MS + 5_000);
    // This machine may finish the check within the limit or not; either way the outcome is whole.
    if ("applied" in outcome) expect((await waitOf(callIds[0]!)).status).toBe("reported");
    else {
      expect(outcome).toMatchObject({ code: "INVALID_INPUT", message: `result: could not be checked against the tool's result schema within ${RESULT_CHECK_TIMEOUT_MS / 1000} s; send a smaller result` });
      expect((await waitOf(callIds[0]!)).status).toBe("waiting");
    }
  });

  it("lets only reviewers and admins report and answer; viewers see the questions (403, 401)", async () => {
    const { runId, callIds } = await waitingRun(fixture, [{ kind: "external" }, { kind: "person", question: "Which region?", resultSchema: ANSWER_SCHEMA }]);
    await expect(as(vic).toolCall.report({ runId, callId: callIds[0]!, result: {} })).rejects.toMatchObject({ code: "FORBIDDEN", message: "This needs the reviewer role; vic@example.test is a viewer" });
    await expect(as(vic).toolCall.answer({ callId: callIds[1]!, answer: { approved: true } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(as(null).toolCall.report({ runId, callId: callIds[0]!, result: {} })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const questions = await as(vic).toolCall.questions();
    expect(questions.items.find((item) => item.callId === callIds[1])).toMatchObject({ runId, workflow: "sandbox-escalation", stepName: "write_script", tool: "person_tool", question: "Which region?" });
    expect(questions.items.some((item) => item.callId === callIds[0])).toBe(false);
    const question = await as(vic).toolCall.question({ callId: callIds[1]! });
    expect(question).toMatchObject({ status: "waiting", canAnswer: false, answerSchema: ANSWER_SCHEMA, specification: "ask before writing" });
    expect((await as(ada).toolCall.question({ callId: callIds[1]! })).canAnswer).toBe(true);
    await expect(as(vic).toolCall.question({ callId: callIds[0]! })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await waitOf(callIds[0]!)).status).toBe("waiting");
  });

  it("applies a report once: the wait is reported and the run resumes; a duplicate is acknowledged without effect", async () => {
    const { runId, callIds } = await waitingRun(fixture, [{ kind: "external", resultSchema: DEPLOY_SCHEMA }]);
    const first = await as(ada).toolCall.report({ runId, callId: callIds[0]!, result: { status: "deployed", count: 3 } });
    expect(first).toMatchObject({ applied: true, runId, callId: callIds[0], status: "reported", reportedBy: ada.email, resumed: true });
    const wait = await waitOf(callIds[0]!);
    expect(wait).toMatchObject({ status: "reported", reportedBy: ada.email, result: { status: "deployed", count: 3 } });
    expect((await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId } })).waitingToolCount).toBe(0);
    expect(await fixture.database.db.inboxMessage.count({ where: { runId, kind: "report" } })).toBe(1);

    const again = await reportToolCall(fixture.database.db, { runId, callId: callIds[0]!, result: { status: "failed" } }, bob);
    expect(again).toMatchObject({ applied: false, status: "reported", reportedBy: ada.email });
    expect(again.message).toMatch(new RegExp(`^Tool call ${callIds[0]} was already answered by ada@example.test at \\d{4}-.*; this report had no effect\\.$`));
    expect((await waitOf(callIds[0]!)).result).toEqual({ status: "deployed", count: 3 });
    expect(await fixture.database.db.inboxMessage.count({ where: { runId, kind: "report" } })).toBe(1);
  });

  it("a person's answer is checked against the form's schema, recorded with an audit event; the second answerer learns who was first", async () => {
    const { runId, callIds } = await waitingRun(fixture, [{ kind: "person", question: "May I delete the old bucket?", resultSchema: ANSWER_SCHEMA }]);
    expect((await listPendingPersonCalls(fixture.database.db)).items.some((item) => item.callId === callIds[0])).toBe(true);
    await expect(as(ada).toolCall.answer({ callId: callIds[0]!, answer: { approved: "yes" } })).rejects.toMatchObject({ code: "BAD_REQUEST", message: "answer.approved: must be boolean" });
    await expect(as(ada).toolCall.answer({ callId: callIds[0]!, answer: {} })).rejects.toMatchObject({ code: "BAD_REQUEST", message: "answer.approved: is required" });

    const answered = await as(ada).toolCall.answer({ callId: callIds[0]!, answer: { approved: true, note: "it is empty" } });
    expect(answered).toMatchObject({ applied: true, runId, reportedBy: ada.email });
    const late = await as(bob).toolCall.answer({ callId: callIds[0]!, answer: { approved: false } });
    expect(late).toMatchObject({ applied: false, status: "reported", reportedBy: ada.email });
    expect((await waitOf(callIds[0]!)).result).toEqual({ approved: true, note: "it is empty" });
    expect((await listPendingPersonCalls(fixture.database.db)).items.some((item) => item.callId === callIds[0])).toBe(false);
    const question = await as(bob).toolCall.question({ callId: callIds[0]! });
    expect(question).toMatchObject({ status: "reported", answeredBy: ada.email, answer: { approved: true, note: "it is empty" } });
    const audit = await fixture.database.db.auditEvent.findMany({ where: { actorEmail: ada.email } });
    expect(audit.some((event) => event.target.includes(callIds[0]!) || JSON.stringify(event.detail).includes(callIds[0]!))).toBe(true);
  });

  it("a report after the deadline, before the watchdog swept, is the timeout's: acknowledged without effect", async () => {
    const { runId, callIds } = await waitingRun(fixture, [{ kind: "external", tool: "ci_build", deadlineInMs: -60_000 }]);
    const late = await reportToolCall(fixture.database.db, { runId, callId: callIds[0]!, result: { passed: true } }, ada);
    expect(late).toMatchObject({ applied: false, status: "timed_out", reportedBy: "watchdog" });
    expect(late.message).toMatch(new RegExp(`^Tool call ${callIds[0]} timed out at \\d{4}-.*: the run went on with the timeout, and this report had no effect\\.$`));
    expect(await waitOf(callIds[0]!)).toMatchObject({ status: "timed_out", result: { error: true, code: "TIMEOUT" } });
    // The timeout resumes the run exactly as the watchdog's would: one report message, due.
    expect(await fixture.database.db.inboxMessage.count({ where: { runId, kind: "report", status: "pending" } })).toBe(1);
    expect((await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId } })).waitingToolCount).toBe(0);
  });

  it("a report after the wait timed out is acknowledged without effect, saying so", async () => {
    const { runId, callIds } = await waitingRun(fixture, [{ kind: "external" }]);
    await fixture.database.db.toolWait.update({ where: { id: callIds[0]! }, data: { status: "timed_out", reportedBy: "watchdog", reportedAt: new Date("2026-11-26T06:00:00Z"), result: { error: true, code: "TIMEOUT", message: "no result in time" } } });
    const late = await reportToolCall(fixture.database.db, { runId, callId: callIds[0]!, result: { ok: true } }, ada);
    expect(late).toMatchObject({ applied: false, status: "timed_out", reportedAt: new Date("2026-11-26T06:00:00Z") });
    expect(late.message).toBe(`Tool call ${callIds[0]} timed out at 2026-11-26T06:00:00.000Z: the run went on with the timeout, and this report had no effect.`);
  });
});
