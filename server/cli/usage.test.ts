import { describe, expect, it } from "vitest";
import { EXPORT_OPTIONS as CASSETTE_EXPORT_OPTIONS } from "./commands/cassette";
import { LIST_OPTIONS as DATASETS_LIST_OPTIONS, UPLOAD_OPTIONS as DATASETS_UPLOAD_OPTIONS } from "./commands/datasets";
import { APPROVE_OPTIONS, LIST_OPTIONS as ESCALATIONS_LIST_OPTIONS, REJECT_OPTIONS, SHOW_OPTIONS as ESCALATIONS_SHOW_OPTIONS } from "./commands/escalations";
import { EVAL_OPTIONS } from "./commands/eval";
import { EXPORT_OPTIONS as WORKFLOW_EXPORT_OPTIONS } from "./commands/export";
import { GUARD_OPTIONS } from "./commands/guard";
import { EXPORT_OPTIONS as PROVENANCE_EXPORT_OPTIONS } from "./commands/provenance";
import { RUN_OPTIONS } from "./commands/run";
import { LIST_OPTIONS as RUNS_LIST_OPTIONS, SHOW_OPTIONS as RUNS_SHOW_OPTIONS } from "./commands/runs";
import { REPORT_OPTIONS } from "./commands/runs/report";
import { SERVE_OPTIONS } from "./commands/serve";
import { WORKER_OPTIONS } from "./commands/worker";
import { USAGE } from "./usage";

/** Each command line of USAGE as typed, with the options each one accepts. */
const COMMANDS: ReadonlyArray<[string, Readonly<Record<string, unknown>>]> = [
  ["start", SERVE_OPTIONS],
  ["dev", SERVE_OPTIONS],
  ["guard", GUARD_OPTIONS],
  ["run", RUN_OPTIONS],
  ["eval", EVAL_OPTIONS],
  ["worker", WORKER_OPTIONS],
  ["runs list", RUNS_LIST_OPTIONS],
  ["runs show", RUNS_SHOW_OPTIONS],
  ["runs report", REPORT_OPTIONS],
  ["escalations list", ESCALATIONS_LIST_OPTIONS],
  ["escalations show", ESCALATIONS_SHOW_OPTIONS],
  ["escalations approve", APPROVE_OPTIONS],
  ["escalations reject", REJECT_OPTIONS],
  ["export", WORKFLOW_EXPORT_OPTIONS],
  ["cassette export", CASSETTE_EXPORT_OPTIONS],
  ["provenance export", PROVENANCE_EXPORT_OPTIONS],
  ["datasets upload", DATASETS_UPLOAD_OPTIONS],
  ["datasets list", DATASETS_LIST_OPTIONS],
];

/** The lines USAGE gives a command: its own line and the indented lines up to the next command. */
function usageOf(command: string): string {
  const lines = USAGE.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`  ${command} `) || line === `  ${command}`);
  if (start < 0) return "";
  const end = lines.findIndex((line, index) => index > start && /^ {2}[a-z-]/.test(line));
  return lines.slice(start, end < 0 ? undefined : end).join("\n");
}

describe("USAGE", () => {
  it.each(COMMANDS)("lists every option %s accepts", (command, options) => {
    const text = usageOf(command);
    expect(text, `no usage line for ${command}`).not.toBe("");
    const missing = Object.keys(options).filter((name) => !new RegExp(`--${name}(?![\\w-])`).test(text));
    expect(missing, `${command}: options the usage does not list`).toEqual([]);
  });
});
