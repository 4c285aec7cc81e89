import type { Env } from "../../env";
import type { ContextValue } from "../../engine";
import { GeneratorSpecError } from "../../generators/generator-spec";
import { withoutDelays, type Cassette } from "../../generators/replay/cassette";
import { readCassetteFile } from "../../generators/replay/cassette-file";
import { cassetteDirectories } from "../../services/cassettes/cassette-directories";
import { GuardSpecError } from "../../guards/guard-spec";
import { createDb } from "../../persistence/db";
import { migrateDatabase } from "../../persistence/migrations/migrate";
import { loadModelDirectory } from "../../models/load-from-prisma";
import { buildRunReport, type RunReport } from "../../services/runs/run-report";
import { enqueueRun } from "../../services/runs/enqueue-run";
import { saveWorkflowDefinition } from "../../services/workflows/save-definition";
import { isServiceError } from "../../services/errors";
import { compileWorkflow } from "../../workflows/compile";
import { validateWorkflowDocument, workflowNameFromFile, type WorkflowDefinition } from "../../workflows/definition";
import { formatFindings, formatWarning } from "../../workflows/document";
import type { CliIo } from "../io";
import { parseCommandLine } from "../parse-options";
import { readBoundedText } from "../read-bounded-text";
import { executeInForeground } from "./run-foreground";
import { UsageError } from "../usage-error";
import { terminalJson } from "../terminal-text";

/** Exit codes of `dualstate run`: the run's outcome, or 2 when the input was bad. */
export const RUN_EXIT = { success: 0, failed: 3, escalation: 4, waiting: 5, badInput: 2 } as const;

export const RUN_OPTIONS = {
  spec: { type: "string" },
  var: { type: "string", multiple: true },
  generator: { type: "string" },
  cassette: { type: "string" },
  "no-delay": { type: "boolean" },
  json: { type: "boolean" },
  detach: { type: "boolean" },
} as const;

export type { RunReport } from "../../services/runs/run-report";

/** A bad command line or document: reported on stderr, exit 2, nothing stored. */
class BadInput extends Error {}

/** `true`/`false` → booleans, numbers → numbers, anything else stays text. */
export function parseVarValue(text: string): ContextValue {
  if (text === "true") return true;
  if (text === "false") return false;
  if (text.trim() !== "" && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text.trim())) return Number(text);
  return text;
}

function parseVars(entries: readonly string[], definition: WorkflowDefinition): Record<string, ContextValue> {
  const values: Record<string, ContextValue> = {};
  for (const entry of entries) {
    const equals = entry.indexOf("=");
    if (equals <= 0) throw new BadInput(`--var "${entry}": expected NAME=VALUE`);
    const name = entry.slice(0, equals);
    if (!Object.hasOwn(definition.context, name)) {
      const declared = Object.keys(definition.context);
      throw new BadInput(`--var ${name}: not a context variable of workflow "${definition.name}" (declared: ${declared.length > 0 ? declared.join(", ") : "none"})`);
    }
    values[name] = parseVarValue(entry.slice(equals + 1));
  }
  return values;
}

function readDocument(file: string): string {
  try {
    return readBoundedText(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BadInput(`cannot read ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : code === "EFBIG" ? (error as Error).message : (code ?? "unreadable")}`);
  }
}

function humanSummary(report: RunReport, workflow: string, version: number): string {
  const status = report.status === "escalation" ? "escalation (waiting for a decision)" : report.status === "waiting" ? "waiting for tool calls" : report.status;
  const lines = [`Run ${report.runId} of ${workflow} v${version}: ${status} in state "${report.finalState ?? "?"}" (${report.attempts.length} guarded attempt${report.attempts.length === 1 ? "" : "s"})`];
  for (const attempt of report.attempts) {
    const verdict = attempt.passed ? "passed" : attempt.fatal ? "FATAL" : "failed";
    const oneLine = attempt.feedback.replace(/\s+/g, " ").trim();
    const feedback = oneLine ? `: ${oneLine.length > 160 ? `${oneLine.slice(0, 157)}...` : oneLine}` : "";
    lines.push(`  ${attempt.step} attempt ${attempt.attempt}: ${verdict}${feedback}`);
  }
  if (report.status === "failed" || report.status === "cancelled") lines.push(`Failed at ${report.failedStep}${report.reason ? `: ${report.reason}` : ""}`);
  if (report.escalation) lines.push(`Escalated at ${report.escalation.step} (artifact ${report.escalation.artifactId}): ${report.escalation.feedback}`);
  for (const wait of report.waiting) {
    const how = wait.kind === "person" ? "answer it in the review queue" : `npx dualstate runs report ${report.runId} ${wait.callId} --result JSON`;
    lines.push(`Waiting for ${wait.tool} (${wait.kind}) in ${wait.step}, call ${wait.callId}${wait.question ? `: ${wait.question.replace(/\s+/g, " ").slice(0, 160)}` : ""}; ${how}`);
  }
  const guards = Object.keys(report.artifacts);
  if (guards.length > 0) lines.push(`Artifacts: ${guards.join(", ")}`);
  return lines.join("\n");
}

/**
 * `dualstate run <file> [--spec TEXT] [--var NAME=VALUE]... [--generator replay --cassette FILE [--no-delay]] [--json] [--detach]`:
 * validates the document, stores it as a workflow version, and queues a run of it (pinned to
 * that version) like any other run. With --detach it prints the run id and leaves the run to the
 * workers; otherwise it executes the run with a worker of its own until the run ends or waits for
 * a person (the sub-runs of its workflow tools included: run-foreground.ts). The document's warnings are printed on stderr before it runs. Exit 0 success,
 * 3 failed, 4 escalation (waiting for a decision), 5 waiting for tool calls (a person's answer, an
 * outside system's report), 2 bad input (nothing is stored then).
 */
export async function runCommand(args: string[], env: Env, io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(args, RUN_OPTIONS, "run");
  const [file, ...extra] = positionals;
  if (file === undefined) throw new UsageError("dualstate run: expected <file>");
  if (extra.length > 0) throw new UsageError(`dualstate run: unexpected argument "${extra[0]}"`);

  let definition: WorkflowDefinition;
  let specification: string;
  let overrides: Record<string, ContextValue>;
  let cassette: Cassette | undefined;
  try {
    if (values.generator !== undefined && values.generator !== "replay") throw new BadInput(`--generator: "${values.generator}" is not supported (only replay; the document's generators run otherwise)`);
    if (values.cassette !== undefined && values.generator !== "replay") throw new BadInput("--cassette needs --generator replay");
    if (values.generator === "replay" && !values.cassette) throw new BadInput("--generator replay needs --cassette FILE");
    if (values["no-delay"] && values.generator !== "replay") throw new BadInput("--no-delay needs --generator replay");

    const result = validateWorkflowDocument(readDocument(file), file, { fallbackName: workflowNameFromFile(file) });
    if (!result.ok) {
      io.err(formatFindings(result.problems, result.warnings).join("\n"));
      return RUN_EXIT.badInput;
    }
    // Warnings never stop a run; said first, on stderr, so --json output stays one object.
    if (result.warnings.length > 0) io.err(result.warnings.map(formatWarning).join("\n"));
    definition = result.definition;
    const spec = values.spec ?? definition.specification;
    if (spec === undefined || spec.trim() === "") throw new BadInput(`no specification: pass --spec TEXT (workflow "${definition.name}" declares no specification)`);
    specification = spec;
    overrides = parseVars(values.var ?? [], definition);

    cassette = values.generator === "replay" ? readCassette(values.cassette as string) : undefined;
    if (cassette && values["no-delay"]) cassette = withoutDelays(cassette);
  } catch (error) {
    if (error instanceof BadInput) {
      io.err(`dualstate run: ${error.message}`);
      return RUN_EXIT.badInput;
    }
    throw error;
  }

  await migrateDatabase(env.DATABASE_URL);
  const db = createDb(env.DATABASE_URL);
  try {
    try {
      // Compiling checks what validation cannot (a model that is not configured under Admin →
      // Models or in OPENAI_*, for one) before anything is stored.
      compileWorkflow(definition, {
        models: await loadModelDirectory(db, env),
        generatorOverride: cassette ? { kind: "replay", cassette } : undefined,
        contextValues: overrides,
        cassetteDirectories: cassetteDirectories(env),
      });
    } catch (error) {
      if (error instanceof GeneratorSpecError || error instanceof GuardSpecError) {
        io.err(`dualstate run: ${error.message}`);
        return RUN_EXIT.badInput;
      }
      throw error;
    }
    const saved = await saveWorkflowDefinition(db, definition);
    let runId: string;
    try {
      ({ id: runId } = await enqueueRun(db, {
        workflowVersionId: saved.versionId,
        specification,
        contextValues: overrides,
        generatorOverride: cassette ? { kind: "replay", cassette } : undefined,
        // The CLI's operator has no account here; a quorum's starter rule cannot name them.
        startedBy: "cli",
      }, env));
    } catch (error) {
      // An archived workflow: said as bad input, like any other reason the run cannot start.
      if (!isServiceError(error)) throw error;
      io.err(`dualstate run: ${error.message}`);
      return RUN_EXIT.badInput;
    }
    if (values.detach) {
      io.out(values.json ? terminalJson({ runId, status: "queued" }) : runId);
      return RUN_EXIT.success;
    }
    await executeInForeground(env, db, runId);
    const report = await buildRunReport(db, runId);
    // The --json object has exactly the fields issue 5 promised; the reason is in the summary line.
    const { reason: _reason, ...json } = report;
    io.out(values.json ? terminalJson(json) : humanSummary(report, definition.name, saved.version));
    return report.status === "success" ? RUN_EXIT.success : report.status === "escalation" ? RUN_EXIT.escalation : report.status === "waiting" ? RUN_EXIT.waiting : RUN_EXIT.failed;
  } finally {
    await db.$disconnect();
  }
}

/**
 * The operator's cassette file, carried inline by the run so any worker can replay it: the CLI
 * runs on the operator's machine, so it may read the path they name, as a regular file within
 * the size limit (a path inside a document is never read).
 */
function readCassette(file: string): Cassette {
  try {
    return readCassetteFile(file);
  } catch (error) {
    if (error instanceof Error && error.name === "CassetteError") throw new BadInput(`--cassette: ${error.message}`);
    throw error;
  }
}
