import { existsSync } from "node:fs";
import { join } from "node:path";
import { isCassetteName, type Cassette } from "@/server/generators/replay/cassette";
import { readNamedCassette } from "@/server/generators/replay/cassette-file";
import { examplesFolder } from "./load-examples";

/** The replay cassette shipped beside a bundled example (examples/<workflow name>.cassette.json), if any. */
export function bundledCassettePath(workflowName: string, folder: string = examplesFolder()): string | null {
  if (!isCassetteName(workflowName)) return null; // never a path outside examples/
  const file = join(folder, `${workflowName}.cassette.json`);
  return existsSync(file) ? file : null;
}

/**
 * The cassette itself, parsed, so a run can carry it inline and execute on any worker. Read with
 * the same checks as any named cassette (a regular file inside examples/, within the size limit).
 */
export function readBundledCassette(workflowName: string, folder: string = examplesFolder()): Cassette | null {
  return bundledCassettePath(workflowName, folder) ? readNamedCassette(workflowName, [folder]) : null;
}
