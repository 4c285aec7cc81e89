import type { Env } from "@/server/env";
import { examplesFolder } from "../examples/load-examples";

/**
 * Where a cassette named by a document is looked up, in order: the directory an administrator
 * configured (DUALSTATE_CASSETTE_DIR), then the bundled examples (examples/*.cassette.json),
 * which ship with the product. No other place on the server's disk is ever read for a document.
 */
export function cassetteDirectories(env: Pick<Env, "DUALSTATE_CASSETTE_DIR">): string[] {
  return [...(env.DUALSTATE_CASSETTE_DIR ? [env.DUALSTATE_CASSETTE_DIR] : []), examplesFolder()];
}
