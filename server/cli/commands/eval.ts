import { readFileSync, statSync } from "node:fs";
import type { Env } from "../../env";
import { compareExperimentsById } from "../../services/experiments/compare-experiments";
import { createExperiment } from "../../services/experiments/create-experiment";
import { cancelExperiment } from "../../services/experiments/cancel-experiment";
import { getExperiment } from "../../services/experiments/get-experiment";
import { pairDurableStore } from "../../services/durable-store-for";
import { isServiceError } from "../../services/errors";
import { saveWorkflowDefinition } from "../../services/workflows/save-definition";
import { createDb, type Db } from "../../persistence/db";
import { migrateDatabase } from "../../persistence/migrations/migrate";
import { startWorker } from "../../worker/worker-from-env";
import { validateWorkflowDocument, workflowNameFromFile } from "../../workflows/definition";
import { formatFindings } from "../../workflows/document";
import type { CliIo } from "../io";
import { parseCommandLine } from "../parse-options";
import { readBoundedText } from "../read-bounded-text";
import { terminalJson } from "../terminal-text";
import { UsageError } from "../usage-error";
import { EvalInputError } from "./eval/eval-input-error";
import { EVAL_EXIT, evalVerdict, humanReport, jsonReport } from "./eval/eval-report";
import { ProgressReporter, stderrProgress, type ProgressSink } from "./eval/progress";
import { resolveDataset } from "./eval/resolve-dataset";

export const EVAL_OPTIONS = {
  dataset: { type: "string" },
  "dataset-version": { type: "string" },
  "dataset-name": { type: "string" },
  version: { type: "string" },
  k: { type: "string" },
  concurrency: { type: "string" },
  baseline: { type: "string" },
  "fail-under": { type: "string" },
  cassette: { type: "string" },
  "no-delay": { type: "boolean" },
  name: { type: "string" },
  json: { type: "boolean" },
} as const;

export { EVAL_EXIT };

/** How often the progress is read while the experiment runs. */
const POLL_MS = 250;
/** How long the workers get to finish what they hold on the way out (every run has ended by then). */
const DRAIN_MS = 5_000;
const MAX_CASSETTE_BYTES = 5 * 1024 * 1024;

/**
 * `dualstate eval <workflow> --dataset FILE|NAME [--dataset-version N] [--version N] [--k N]
 * [--concurrency N] [--cassette FILE [--no-delay]] [--baseline EXPERIMENT] [--fail-under RATE] [--json]`:
 * runs an experiment of the workflow (a stored name, or a document file stored as a version like
 * `dualstate run` does) over the dataset (a stored name, or a JSONL/CSV/YAML file stored as a
 * version unless its cases are stored already) with workers of its own in this process, shows
 * progress, prints the results, and fails the build: exit 3 below --fail-under, 4 on a
 * regression against --baseline, 5 when the experiment did not complete, 2 on bad input.
 */
export async function evalCommand(args: string[], env: Env, io: CliIo, progressSink: ProgressSink = stderrProgress): Promise<number> {
  const { values, positionals } = parseCommandLine(args, EVAL_OPTIONS, "eval");
  const [workflowArgument, ...extra] = positionals;
  if (workflowArgument === undefined) throw new UsageError("dualstate eval: expected <workflow> (a stored workflow's name or a document file)");
  if (extra.length > 0) throw new UsageError(`dualstate eval: unexpected argument "${extra[0]}"`);
  if (!values.dataset) throw new UsageError("dualstate eval: --dataset FILE|NAME is required");

  let settings: ReturnType<typeof numericOptions>;
  try {
    settings = numericOptions(values);
    if (values["no-delay"] && !values.cassette) throw new EvalInputError("--no-delay needs --cassette FILE");
  } catch (error) {
    return badInput(io, error);
  }

  await migrateDatabase(env.DATABASE_URL);
  const db = createDb(env.DATABASE_URL);
  // Workers of its own, sharing their store with the services here (one SQLite connection per process).
  const worker = startWorker(env, { concurrency: Math.min(settings.concurrency, 16) });
  pairDurableStore(db, worker.store);
  let experimentId: string | undefined;
  const interrupt = () => {
    if (experimentId) void cancelExperiment(db, experimentId, "dualstate eval (interrupted)").catch(() => {});
  };
  process.once("SIGINT", interrupt);
  try {
    let workflowId: string;
    let datasetId: string;
    let cassette: string | undefined;
    try {
      workflowId = await resolveWorkflow(db, workflowArgument, settings.version, io);
      const dataset = await resolveDataset(db, values.dataset, { name: values["dataset-name"], version: settings.datasetVersion, createdBy: "dualstate eval" });
      datasetId = dataset.datasetId;
      if (dataset.stored) io.err(`Stored ${values.dataset} as dataset "${dataset.name}" v${dataset.version}`);
      if (values.baseline && !(await db.experiment.findUnique({ where: { id: values.baseline }, select: { id: true } }))) throw new EvalInputError(`--baseline "${values.baseline}": no such experiment`);
      cassette = values.cassette ? readCassetteText(values.cassette) : undefined;
      ({ id: experimentId } = await createExperiment(
        db,
        { workflowId, version: settings.version, datasetId, k: settings.k, concurrency: settings.concurrency, name: values.name, cassette, noDelay: values["no-delay"] },
        "dualstate eval",
        env,
      ));
    } catch (error) {
      return badInput(io, error);
    }

    const progress = new ProgressReporter(progressSink);
    let experiment = await getExperiment(db, experimentId);
    while (experiment.status === "queued" || experiment.status === "running" || experiment.progress.inFlight > 0) {
      progress.update(experiment.progress.ended, experiment.progress.total, experiment.progress.inFlight);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      experiment = await getExperiment(db, experimentId);
    }
    progress.update(experiment.progress.ended, experiment.progress.total, 0);
    progress.finish();

    const comparison = values.baseline ? await compareExperimentsById(db, { baselineId: values.baseline, candidateId: experimentId }) : undefined;
    const verdict = evalVerdict(experiment, settings.failUnder, comparison);
    io.out(values.json ? terminalJson(jsonReport(experiment, comparison, verdict, settings.failUnder), 2) : humanReport(experiment, comparison, verdict));
    return verdict.exitCode;
  } finally {
    process.off("SIGINT", interrupt);
    await worker.stop(DRAIN_MS);
    await db.$disconnect();
  }
}

function badInput(io: CliIo, error: unknown): number {
  if (error instanceof EvalInputError || isServiceError(error)) {
    io.err(`dualstate eval: ${error.message}`);
    return EVAL_EXIT.badInput;
  }
  throw error;
}

function numericOptions(values: { k?: string; concurrency?: string; version?: string; "dataset-version"?: string; "fail-under"?: string }) {
  return {
    k: wholeNumber("--k", values.k, 1),
    concurrency: wholeNumber("--concurrency", values.concurrency, 4),
    version: values.version === undefined ? undefined : wholeNumber("--version", values.version, 1),
    datasetVersion: values["dataset-version"] === undefined ? undefined : wholeNumber("--dataset-version", values["dataset-version"], 1),
    failUnder: values["fail-under"] === undefined ? undefined : rate(values["fail-under"]),
  };
}

function wholeNumber(option: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d{1,6}$/.test(text.trim()) || Number(text) < 1) throw new EvalInputError(`${option}: "${text}" is not a whole number of at least 1`);
  return Number(text);
}

/** 0.8, or 80%: a pass rate between 0 and 1. */
function rate(text: string): number {
  const trimmed = text.trim();
  const value = trimmed.endsWith("%") ? Number(trimmed.slice(0, -1)) / 100 : Number(trimmed);
  if (trimmed === "" || !Number.isFinite(value) || value < 0 || value > 1) throw new EvalInputError(`--fail-under: "${text}" is not a pass rate (0 to 1, or 0% to 100%)`);
  return value;
}

/** A stored workflow's name, or a document file stored as a new version (like `dualstate run`). */
async function resolveWorkflow(db: Db, argument: string, version: number | undefined, io: CliIo): Promise<string> {
  let isFile = false;
  try {
    isFile = statSync(argument).isFile();
  } catch {
    isFile = false;
  }
  if (!isFile) {
    const workflow = await db.workflow.findUnique({ where: { name: argument }, select: { id: true } });
    if (!workflow) throw new EvalInputError(`<workflow> "${argument}": no such file, and no stored workflow has that name`);
    return workflow.id;
  }
  if (version !== undefined) throw new EvalInputError("--version: applies to a stored workflow named by <workflow>, not to a file (a file is stored as the newest version)");
  let text: string;
  try {
    text = readBoundedText(argument);
  } catch (error) {
    throw new EvalInputError(`<workflow> ${argument}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const result = validateWorkflowDocument(text, argument, { fallbackName: workflowNameFromFile(argument) });
  if (!result.ok) throw new EvalInputError(`${argument} is not a valid workflow:\n${formatFindings(result.problems, result.warnings).join("\n")}`);
  const saved = await saveWorkflowDefinition(db, result.definition);
  if (saved.created) io.err(`Stored ${argument} as ${result.definition.name} v${saved.version}`);
  return saved.workflowId;
}

function readCassetteText(file: string): string {
  try {
    const size = statSync(file).size;
    if (size > MAX_CASSETTE_BYTES) throw new EvalInputError(`--cassette ${file}: is ${size} bytes; the limit is ${MAX_CASSETTE_BYTES}`);
    return readFileSync(file, "utf8");
  } catch (error) {
    if (error instanceof EvalInputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new EvalInputError(`--cassette ${file}: ${code === "ENOENT" ? "no such file" : (code ?? "unreadable")}`);
  }
}
