/**
 * How long `dualstate --help` takes, as a script would start it (a new node process), next to a
 * node process that does nothing. The command runs from its compiled JavaScript (bin/compiled-cli.mjs);
 * the first start below compiles it when the sources changed, and is not counted.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const STARTS = 7;
const TARGET_MS = 300;
const bin = fileURLToPath(new URL("../../bin/dualstate.mjs", import.meta.url));

function medianStartMs(args: string[]): number {
  const durations: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const start = performance.now();
    execFileSync(process.execPath, args, { stdio: "ignore" });
    durations.push(performance.now() - start);
  }
  durations.sort((a, b) => a - b);
  return durations[Math.floor(durations.length / 2)] ?? 0;
}

export async function benchCliStart(): Promise<void> {
  console.log(`\nMeasuring the command's start: node bin/dualstate.mjs --help, median of ${STARTS} starts...`);
  execFileSync(process.execPath, [bin, "--help"], { stdio: "ignore" }); // compiles if needed
  const help = medianStartMs([bin, "--help"]);
  const bare = medianStartMs(["-e", "0"]);
  console.log(`  dualstate --help        ${help.toFixed(0).padStart(5)} ms   target ≤ ${TARGET_MS} ms: ${help <= TARGET_MS ? "met" : "NOT met"}`);
  console.log(`  node -e 0 (bare node)   ${bare.toFixed(0).padStart(5)} ms   the command costs ${(help / bare).toFixed(1)}× a bare node start`);
}
