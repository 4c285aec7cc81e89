import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { examplesFolder } from "./load-examples";

/** The replay cassette shipped beside a bundled example (examples/<workflow name>.cassette.json), if any. */
export function bundledCassettePath(workflowName: string, folder: string = examplesFolder()): string | null {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(workflowName)) return null; // never a path outside examples/
  const file = join(folder, `${workflowName}.cassette.json`);
  return existsSync(file) ? file : null;
}

/** The cassette itself, parsed, so a run can carry it inline and execute on any worker. */
export function readBundledCassette(workflowName: string, folder?: string): Record<string, unknown> | null {
  const file = bundledCassettePath(workflowName, folder);
  return file ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>) : null;
}
