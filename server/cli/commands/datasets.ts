import { openSync, closeSync, fstatSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { userInfo } from "node:os";
import type { Env } from "../../env";
import { DATASET_LIMITS } from "../../datasets/limits";
import { isServiceError } from "../../services/errors";
import { listDatasets } from "../../services/datasets/list-datasets";
import { uploadDataset } from "../../services/datasets/upload-dataset";
import { EXIT, type CliIo } from "../io";
import { parseCommandLine } from "../parse-options";
import { terminalJson, terminalSafe } from "../terminal-text";
import { UsageError } from "../usage-error";
import { withDurableDatabase as withDatabase } from "../with-durable-database";

export const UPLOAD_OPTIONS = { name: { type: "string" }, description: { type: "string" }, as: { type: "string" }, json: { type: "boolean" } } as const;
export const LIST_OPTIONS = { json: { type: "boolean" } } as const;
const SUBCOMMANDS = "upload, list";

/** The file's text, refused unread when it is larger than any dataset may be. */
function readDatasetFile(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw new UsageError(`dualstate datasets upload: ${path}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new UsageError(`dualstate datasets upload: ${path}: not a file`);
    if (stats.size > DATASET_LIMITS.fileBytes) throw new UsageError(`dualstate datasets upload: ${path} is ${stats.size} bytes; the limit is ${DATASET_LIMITS.fileBytes} bytes (4 MiB)`);
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

async function upload(args: string[], env: Env, io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(args, UPLOAD_OPTIONS, "datasets upload");
  const [path, ...extra] = positionals;
  if (path === undefined) throw new UsageError("dualstate datasets upload: expected <file> (.jsonl, .csv, .yaml or .yml)");
  if (extra.length > 0) throw new UsageError(`dualstate datasets upload: unexpected argument "${extra[0]}"`);
  if (!values.name) throw new UsageError("dualstate datasets upload: --name NAME is required (an existing dataset gets a new version)");
  const text = readDatasetFile(path);
  const fileName = basename(path);
  // Who the version names: --as, else the operating-system account running the command.
  const createdBy = values.as ?? `cli:${userInfo().username}`;
  const result = await withDatabase(env, (db) => uploadDataset(db, { email: createdBy }, { name: values.name!, fileName, text, ...(values.description !== undefined ? { description: values.description } : {}) }));
  if (values.json) {
    io.out(terminalJson(result));
    return result.ok ? EXIT.ok : EXIT.failed;
  }
  if (!result.ok) {
    // compiler style, FILE:LINE: field: message, so editors can jump to each mistake.
    for (const error of result.errors) io.err(terminalSafe(`${fileName}${error.line > 0 ? `:${error.line}` : ""}: ${error.field}: ${error.message}`));
    return EXIT.failed;
  }
  io.out(terminalSafe(`${values.name.trim()} v${result.version}: ${result.cases} case(s) from ${fileName}`));
  return EXIT.ok;
}

async function list(args: string[], env: Env, io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(args, LIST_OPTIONS, "datasets list");
  if (positionals.length > 0) throw new UsageError(`dualstate datasets list: unexpected argument "${positionals[0]}"`);
  const datasets = await withDatabase(env, (db) => listDatasets(db));
  if (values.json) io.out(terminalJson(datasets));
  else if (datasets.length === 0) io.out("No datasets yet: dualstate datasets upload FILE --name NAME");
  else for (const dataset of datasets) io.out(terminalSafe(`${dataset.name}\tv${dataset.latest?.version ?? 0}\t${dataset.latest?.cases ?? 0} case(s)\t${dataset.description}`));
  return EXIT.ok;
}

/** `dualstate datasets upload|list`: the same services as the dashboard's dataset pages. */
export async function datasetsCommand(args: string[], env: Env, io: CliIo): Promise<number> {
  const [subcommand, ...rest] = args;
  try {
    switch (subcommand) {
      case "upload":
        return await upload(rest, env, io);
      case "list":
        return await list(rest, env, io);
      default:
        throw new UsageError(subcommand ? `dualstate datasets: unknown subcommand "${subcommand}" (${SUBCOMMANDS})` : `dualstate datasets: missing subcommand (${SUBCOMMANDS})`);
    }
  } catch (error) {
    if (isServiceError(error)) {
      io.err(terminalSafe(`dualstate datasets ${subcommand}: ${error.message}`));
      return EXIT.failed;
    }
    throw error;
  }
}
