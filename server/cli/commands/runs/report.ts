import { userInfo } from "node:os";
import type { Env } from "../../../env";
import type { Db } from "../../../persistence/db";
import { can } from "../../../auth/permissions";
import type { Reporter } from "../../../services/tool-calls/apply-report";
import { reportToolCall } from "../../../services/tool-calls/report-tool-call";
import { EXIT, type CliIo } from "../../io";
import { parseCommandLine } from "../../parse-options";
import { terminalJson } from "../../terminal-text";
import { UsageError } from "../../usage-error";
import { withDurableDatabase } from "../../with-durable-database";
import { readResult, type ResultSource } from "./read-result";

export const REPORT_OPTIONS = { result: { type: "string" }, "result-file": { type: "string" }, as: { type: "string" }, json: { type: "boolean" } } as const;

/**
 * Who reports: `--as EMAIL` names an enabled user allowed to report (reviewer or admin); without
 * it, the operator, who has the database itself, recorded as `cli:<login name>`.
 */
async function reporterFor(db: Db, email: string | undefined): Promise<Reporter> {
  if (email === undefined) {
    let login = "operator";
    try {
      login = userInfo().username || login;
    } catch {
      // No passwd entry for this uid (a container): the generic name still says it came from the CLI.
    }
    return { id: null, email: `cli:${login}` };
  }
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true, email: true, role: true, disabled: true } });
  if (!user) throw new UsageError(`dualstate runs report: --as ${email}: no user has this email (admins create users under Admin → Users)`);
  if (user.disabled) throw new UsageError(`dualstate runs report: --as ${email}: this user is disabled`);
  if (!can(user.role, "report_tool_result")) throw new UsageError(`dualstate runs report: --as ${email}: ${user.email} is a ${user.role}; only reviewers and admins report tool results`);
  return { id: user.id, email: user.email };
}

/**
 * `dualstate runs report <runId> <callId> --result JSON | --result-file FILE|-`: an external tool's
 * result, through the same service as the HTTP route. Exit 0 when applied and when acknowledged
 * without effect (a duplicate or late report: the message and `--json`'s `applied: false` say so),
 * 1 when refused (unknown run or call, a person's question, a result the schema refuses), 2 for a
 * wrong command line or a result that is not JSON.
 */
export async function reportCommand(args: string[], env: Env, io: CliIo, stdin: AsyncIterable<Uint8Array | string> = process.stdin): Promise<number> {
  const { values, positionals } = parseCommandLine(args, REPORT_OPTIONS, "runs report");
  const [runId, callId, ...extra] = positionals;
  if (runId === undefined || callId === undefined) throw new UsageError("dualstate runs report: expected <run id> <call id>");
  if (extra.length > 0) throw new UsageError(`dualstate runs report: unexpected argument "${extra[0]}"`);
  if ((values.result === undefined) === (values["result-file"] === undefined)) {
    throw new UsageError("dualstate runs report: give the result with exactly one of --result JSON or --result-file FILE (- reads standard input)");
  }
  const source: ResultSource = values.result !== undefined ? { text: values.result } : { file: values["result-file"]! };
  const result = await readResult(source, stdin);
  const outcome = await withDurableDatabase(env, async (db) => reportToolCall(db, { runId, callId, result }, await reporterFor(db, values.as)));
  io.out(values.json ? terminalJson(outcome) : outcome.message);
  return EXIT.ok;
}
