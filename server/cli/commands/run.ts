import { readFileSync } from "node:fs";
import type { Env } from "../../env";
import { runMachine, type ContextValue, type MachineResult } from "../../engine";
import { GeneratorSpecError } from "../../generators/generator-spec";
import { GuardSpecError } from "../../guards/guard-spec";
import { createDb } from "../../persistence/db";
import { migrateDatabase } from "../../persistence/migrations/migrate";
import { PrismaRunRepository } from "../../persistence/prisma-run-repository";
import { saveWorkflowDefinition } from "../../services/workflows/save-definition";
import { compileWorkflow, type CompileContext } from "../../workflows/compile";
import { validateWorkflowDocument, type WorkflowDefinition } from "../../workflows/definition";
import { formatProblem } from "../../workflows/document";
import type { CliIo } from "../io";
import { parseCommandLine } from "../parse-options";
import { UsageError } from "../usage-error";

/** Exit codes of `dualstate run`: the run's outcome, or 2 when the input was bad. */
export const RUN_EXIT = { success: 0, failed: 3, escalation: 4, badInput: 2 } as const;

const RUN_OPTIONS = {
  spec: { type: "string" },
  var: { type: "string", multiple: true },
  generator: { type: "string" },
  cassette: { type: "string" },
  json: { type: "boolean" },
} as const;

export interface RunAttempt {
  step: string;
  attempt: number;
  passed: boolean;
  fatal: boolean;
  feedback: string;
}

/** What `dualstate run --json` prints: one object. */
export interface RunReport {
  runId: string;
  status: MachineResult["status"];
  finalState: string;
  artifacts: Record<string, string>;
  failedStep: string | null;
  escalation: { step: string; feedback: string; artifactId: string } | null;
  attempts: RunAttempt[];
}

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
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BadInput(`cannot read ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : (code ?? "unreadable")}`);
  }
}

function attemptsOf(ledger: readonly { type: string; payload: Readonly<Record<string, unknown>> }[]): RunAttempt[] {
  return ledger
    .filter((entry) => entry.type === "guard.completed")
    .map(({ payload }) => ({
      step: String(payload.step),
      attempt: Number(payload.attempt),
      passed: payload.passed === true,
      fatal: payload.fatal === true,
      feedback: typeof payload.feedback === "string" ? payload.feedback : "",
    }));
}

function humanSummary(report: RunReport, workflow: string, version: number, reason: string | undefined): string {
  const lines = [`Run ${report.runId} of ${workflow} v${version}: ${report.status} in state "${report.finalState}" (${report.attempts.length} guarded attempt${report.attempts.length === 1 ? "" : "s"})`];
  for (const attempt of report.attempts) {
    const verdict = attempt.passed ? "passed" : attempt.fatal ? "FATAL" : "failed";
    const oneLine = attempt.feedback.replace(/\s+/g, " ").trim();
    const feedback = oneLine ? `: ${oneLine.length > 160 ? `${oneLine.slice(0, 157)}...` : oneLine}` : "";
    lines.push(`  ${attempt.step} attempt ${attempt.attempt}: ${verdict}${feedback}`);
  }
  if (report.status === "failed") lines.push(`Failed at ${report.failedStep}${reason ? `: ${reason}` : ""}`);
  if (report.escalation) lines.push(`Escalated at ${report.escalation.step} (artifact ${report.escalation.artifactId}): ${report.escalation.feedback}`);
  const guards = Object.keys(report.artifacts);
  if (guards.length > 0) lines.push(`Artifacts: ${guards.join(", ")}`);
  return lines.join("\n");
}

/**
 * `dualstate run <file> [--spec TEXT] [--var NAME=VALUE]... [--generator replay --cassette FILE] [--json]`:
 * validates the document, stores it as a workflow version, and runs it in the configured
 * database like any other run (pinned to that version). Exit 0 success, 3 failed, 4 escalation,
 * 2 bad input (nothing is stored then).
 */
export async function runCommand(args: string[], env: Env, io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(args, RUN_OPTIONS, "run");
  const [file, ...extra] = positionals;
  if (file === undefined) throw new UsageError("dualstate run: expected <file>");
  if (extra.length > 0) throw new UsageError(`dualstate run: unexpected argument "${extra[0]}"`);

  let definition: WorkflowDefinition;
  let specification: string;
  let overrides: Record<string, ContextValue>;
  let machine: ReturnType<typeof compileWorkflow>;
  try {
    if (values.generator !== undefined && values.generator !== "replay") throw new BadInput(`--generator: "${values.generator}" is not supported (only replay; the document's generators run otherwise)`);
    if (values.cassette !== undefined && values.generator !== "replay") throw new BadInput("--cassette needs --generator replay");
    if (values.generator === "replay" && !values.cassette) throw new BadInput("--generator replay needs --cassette FILE");

    const result = validateWorkflowDocument(readDocument(file), file);
    if (!result.ok) {
      io.err(result.problems.map(formatProblem).join("\n"));
      return RUN_EXIT.badInput;
    }
    definition = result.definition;
    const spec = values.spec ?? definition.specification;
    if (spec === undefined || spec.trim() === "") throw new BadInput(`no specification: pass --spec TEXT (workflow "${definition.name}" declares no specification)`);
    specification = spec;
    overrides = parseVars(values.var ?? [], definition);

    const context: CompileContext = {
      endpoint: { baseURL: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, model: env.OPENAI_MODEL },
      generatorOverride: values.generator === "replay" ? { kind: "replay", cassette: values.cassette } : undefined,
      contextValues: overrides,
    };
    machine = compileWorkflow(definition, context);
  } catch (error) {
    if (error instanceof BadInput || error instanceof GeneratorSpecError || error instanceof GuardSpecError) {
      io.err(`dualstate run: ${error.message}`);
      return RUN_EXIT.badInput;
    }
    throw error;
  }

  await migrateDatabase(env.DATABASE_URL);
  const db = createDb(env.DATABASE_URL);
  try {
    const saved = await saveWorkflowDefinition(db, definition);
    const repository = new PrismaRunRepository(db);
    const run = await repository.create({ specification, workflowVersionId: saved.versionId });
    let result: MachineResult;
    try {
      result = await runMachine(machine, {
        specification,
        constraints: definition.constraints,
        dag: repository.dag(run.id),
        observer: repository.observer(run.id),
        calls: repository.calls(run.id),
        contextOverrides: overrides,
      });
    } catch (error) {
      // A crash must not leave the run "running" forever: it ends failed, with the reason.
      const reason = `The run stopped on an internal error: ${error instanceof Error ? error.message : String(error)}`;
      await repository.observer(run.id).record({ type: "run.finished", result: { status: "failed", artifacts: {}, failedStep: run.currentStep ?? "(run)", reason, provenance: [] } });
      throw error;
    }
    const report: RunReport = {
      runId: run.id,
      status: result.status,
      finalState: result.finalState,
      artifacts: Object.fromEntries(Object.entries(result.artifacts).map(([guardId, artifact]) => [guardId, artifact.content])),
      failedStep: result.status === "success" ? null : result.failedStep,
      escalation: result.status === "escalation" ? { step: result.failedStep, feedback: result.escalationFeedback, artifactId: result.escalationArtifact.id } : null,
      attempts: attemptsOf(await repository.ledger(run.id)),
    };
    if (values.json) io.out(JSON.stringify(report));
    else io.out(humanSummary(report, definition.name, saved.version, result.status === "failed" ? result.reason : undefined));
    return RUN_EXIT[result.status];
  } finally {
    await db.$disconnect();
  }
}
