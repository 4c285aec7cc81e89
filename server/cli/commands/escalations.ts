import type { Env } from "../../env";
import type { Db } from "../../persistence/db";
import { isServiceError, notFound } from "../../services/errors";
import { decideEscalation } from "../../services/escalations/decide-escalation";
import type { DecisionKind } from "../../services/escalations/decision-kinds";
import { getEscalation } from "../../services/escalations/get-escalation";
import { ESCALATION_SORTS, ESCALATION_STATUSES, listEscalations, type ListEscalationsInput } from "../../services/escalations/list-escalations";
import { EXIT, type CliIo } from "../io";
import { parseCommandLine } from "../parse-options";
import { readBoundedText } from "../read-bounded-text";
import { UsageError } from "../usage-error";
import { deciderFromEmail } from "./escalations/decider";
import { formatQueue, formatReview } from "./escalations/format";
import { terminalJson } from "../terminal-text";
import { withDurableDatabase as withDatabase } from "../with-durable-database";

export const LIST_OPTIONS = { status: { type: "string" }, workflow: { type: "string" }, step: { type: "string" }, sort: { type: "string" }, limit: { type: "string" }, json: { type: "boolean" } } as const;
export const SHOW_OPTIONS = { json: { type: "boolean" } } as const;
export const APPROVE_OPTIONS = { as: { type: "string" }, comment: { type: "string" }, hash: { type: "string" }, edit: { type: "string" }, json: { type: "boolean" } } as const;
export const REJECT_OPTIONS = { as: { type: "string" }, comment: { type: "string" }, feedback: { type: "string" }, hash: { type: "string" }, json: { type: "boolean" } } as const;
const SUBCOMMANDS = "list, show, approve, reject";

function oneOf<T extends string>(command: string, option: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`dualstate escalations ${command}: --${option} must be one of ${allowed.join(", ")}, got "${value}"`);
  return value as T;
}

function singleId(command: string, positionals: string[]): string {
  const [id, ...extra] = positionals;
  if (id === undefined) throw new UsageError(`dualstate escalations ${command}: expected <escalation id>`);
  if (extra.length > 0) throw new UsageError(`dualstate escalations ${command}: unexpected argument "${extra[0]}"`);
  return id;
}

async function list(args: string[], env: Env, io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(args, LIST_OPTIONS, "escalations list");
  if (positionals.length > 0) throw new UsageError(`dualstate escalations list: unexpected argument "${positionals[0]}"`);
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 500)) throw new UsageError(`dualstate escalations list: --limit must be a whole number from 1 to 500, got "${values.limit}"`);
  const input: ListEscalationsInput = {
    status: oneOf("list", "status", values.status, [...ESCALATION_STATUSES, "all"] as const),
    sort: oneOf("list", "sort", values.sort, ESCALATION_SORTS),
    ...(values.workflow ? { workflow: values.workflow } : {}),
    ...(values.step ? { step: values.step } : {}),
    ...(limit !== undefined ? { limit } : {}),
  };
  const result = await withDatabase(env, (db) => listEscalations(db, input));
  io.out(values.json ? terminalJson(result) : formatQueue(result));
  return EXIT.ok;
}

async function show(args: string[], env: Env, io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(args, SHOW_OPTIONS, "escalations show");
  const id = singleId("show", positionals);
  const review = await withDatabase(env, (db) => getEscalation(db, null, { id }));
  io.out(values.json ? terminalJson(review) : formatReview(review));
  return EXIT.ok;
}

async function decide(command: "approve" | "reject", args: string[], env: Env, io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(args, command === "approve" ? APPROVE_OPTIONS : REJECT_OPTIONS, `escalations ${command}`);
  const id = singleId(command, positionals);
  const options = values as { as?: string; comment?: string; feedback?: string; hash?: string; edit?: string; json?: boolean };
  if (options.feedback !== undefined && options.comment !== undefined) throw new UsageError("dualstate escalations reject: give either --comment (the reason the run fails) or --feedback (the step retries), not both");
  const editedContent = options.edit === undefined ? undefined : readEdit(options.edit);
  const decision: DecisionKind = command === "approve" ? (editedContent === undefined ? "approve" : "edit_and_approve") : options.feedback !== undefined ? "reject_with_feedback" : "reject";
  const outcome = await withDatabase(env, async (db) => {
    const decider = await deciderFromEmail(db, command, options.as);
    // Without --hash the decision is on what is pending now, which `show` printed.
    const contentHash = options.hash ?? (await pendingHash(db, id));
    const comment = options.feedback ?? options.comment;
    // The CLI's operator has the database itself, and `show` prints the code: no recorded view is asked for.
    return decideEscalation(db, decider, { escalationId: id, contentHash, decision, ...(comment !== undefined ? { comment } : {}), ...(editedContent !== undefined ? { editedContent } : {}) }, new Date(), { requireSeenCode: false });
  });
  if (options.json) io.out(terminalJson(outcome));
  else if (outcome.status === "pending") io.out(`voted on escalation ${outcome.escalationId} (${outcome.decision.replaceAll("_", " ")}) as ${outcome.decidedBy}; it stays pending: ${outcome.quorum?.summary ?? "more votes are needed"}`);
  else io.out(`${outcome.status} escalation ${outcome.escalationId} (${outcome.decision.replaceAll("_", " ")}) as ${outcome.decidedBy}; run ${outcome.runId} resumes when a worker picks it up${outcome.quorum ? ` (${outcome.quorum.summary})` : ""}`);
  return EXIT.ok;
}

/** The hash of the artifact escalation `id` is pending on: all a decision without --hash needs of it. */
async function pendingHash(db: Db, id: string): Promise<string> {
  const escalation = await db.escalation.findUnique({ where: { id }, select: { artifact: { select: { contentHash: true } } } });
  if (!escalation) throw notFound("Escalation", id);
  if (!escalation.artifact) throw new UsageError(`dualstate escalations: ${id} is a budget escalation; grant more in the review queue or reject it there`);
  return escalation.artifact.contentHash;
}

function readEdit(path: string): string {
  try {
    return readBoundedText(path);
  } catch (error) {
    throw new UsageError(`dualstate escalations approve: --edit ${path}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
}

/**
 * `dualstate escalations list|show|approve|reject`: the review queue for terminals and scripts,
 * through the same services (hash check, one winner, audit log) as the dashboard.
 */
export async function escalationsCommand(args: string[], env: Env, io: CliIo): Promise<number> {
  const [subcommand, ...rest] = args;
  try {
    switch (subcommand) {
      case "list":
        return await list(rest, env, io);
      case "show":
        return await show(rest, env, io);
      case "approve":
      case "reject":
        return await decide(subcommand, rest, env, io);
      default:
        throw new UsageError(subcommand ? `dualstate escalations: unknown subcommand "${subcommand}" (${SUBCOMMANDS})` : `dualstate escalations: missing subcommand (${SUBCOMMANDS})`);
    }
  } catch (error) {
    // Not found, already decided, expired, a stale hash: expected answers, said in one line.
    if (isServiceError(error)) {
      io.err(`dualstate escalations ${subcommand}: ${error.message}`);
      return EXIT.failed;
    }
    throw error;
  }
}
