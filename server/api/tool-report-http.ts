import { can, refusalReason } from "@/server/auth/permissions";
import type { RequestCredentials } from "@/server/auth/resolve-actor";
import { readBoundedBody } from "@/server/http/read-bounded-body";
import type { Db } from "@/server/persistence/db";
import { isServiceError, type ServiceErrorCode } from "@/server/services/errors";
import { reportToolCall } from "@/server/services/tool-calls/report-tool-call";
import { MAX_RESULT_BYTES } from "@/server/services/tool-calls/result-bounds";

/** Room for the `{ "result": … }` envelope and JSON written with indentation and escapes. */
export const MAX_REPORT_BODY_BYTES = 4 * MAX_RESULT_BYTES;
export const REPORT_BODY_SHAPE = '{ "result": { … } }';

const STATUS_FOR: Record<ServiceErrorCode, number> = { NOT_FOUND: 404, CONFLICT: 409, INVALID_INPUT: 400, NOT_CONFIGURED: 412, TOO_MANY_REQUESTS: 429 };
const refuse = (status: number, message: string) => Response.json({ message }, { status });

/**
 * POST /api/runs/<runId>/calls/<callId>/report with `{ "result": { … } }`: an outside system
 * reports an external tool's result, with a personal API token (`Authorization: Bearer dst_…`) or
 * a session whose role may report (reviewers and admins). 200 with the outcome for an applied
 * report and for a duplicate or late one (`applied: false`, who reported first and when); 400 a
 * body or result that is refused (the message names the field), 401, 403, 404 an unknown run or
 * call, 409 a call a report cannot answer (a person's question, a sub-run), 413, 415.
 */
export async function handleToolReport(request: Request, target: { runId: string; callId: string }, db: Db, credentials: (headers: Headers) => Promise<RequestCredentials>): Promise<Response> {
  const { actor, problem } = await credentials(request.headers);
  if (!actor) return refuse(401, problem ?? "Sign in first, or send a personal API token: Authorization: Bearer <token>");
  if (!can(actor.role, "report_tool_result")) return refuse(403, `${refusalReason(actor.role, "report_tool_result")}; ${actor.email} is a ${actor.role}`);
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") return refuse(415, `The body must be JSON (Content-Type: application/json): ${REPORT_BODY_SHAPE}`);
  const declared = Number(request.headers.get("content-length") ?? NaN);
  const tooLarge = () => refuse(413, `A report's body may be at most ${MAX_REPORT_BODY_BYTES / 1024} KiB (the result itself at most ${MAX_RESULT_BYTES / 1024} KiB of JSON)`);
  if (declared > MAX_REPORT_BODY_BYTES) return tooLarge();
  const raw = await readBoundedBody(request.body, MAX_REPORT_BODY_BYTES);
  if (raw === null) return tooLarge();
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    // The parser's message quotes the text; the sender has it already.
    return refuse(400, `The body is not valid JSON; send ${REPORT_BODY_SHAPE}`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return refuse(400, `The body must be one JSON object: ${REPORT_BODY_SHAPE}`);
  const unknownField = Object.keys(body).find((key) => key !== "result");
  if (unknownField !== undefined) return refuse(400, `${unknownField.slice(0, 64)}: unknown field; send ${REPORT_BODY_SHAPE}`);
  try {
    const outcome = await reportToolCall(db, { runId: target.runId, callId: target.callId, result: (body as { result?: unknown }).result }, actor);
    return Response.json(outcome, { status: 200 });
  } catch (error) {
    if (isServiceError(error)) return refuse(STATUS_FOR[error.code], error.message);
    console.error(`report of tool call ${target.callId} of run ${target.runId} failed:`, error);
    return refuse(500, "Internal server error");
  }
}
