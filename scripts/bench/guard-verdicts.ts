/**
 * Guard verdicts on a 200-line artifact, for each language, through the same guard objects a
 * workflow uses (createGuard):
 * 1. the median of a syntax, a security and a sandboxed test verdict (as before);
 * 2. the sandboxed test verdict alone, cold and warm, median and p95, next to the figures from
 *    before the Python boundary (issue 15: JavaScript 120 ms, Python 51 ms median) and the ratio:
 *    - cold, fresh process: the first verdict of a new Node process (a child started per sample),
 *      everything included (for Python, finding the interpreter and checking bubblewrap once);
 *    - cold, fresh pool (Python): the first verdict after the warm sandboxes are thrown away, i.e.
 *      starting prlimit + bwrap + python3 + the runner;
 *    - warm: with a pre-started sandbox waiting, as between two model calls (a pause of
 *      WARM_PAUSE_MS lets the pool replace the sandbox the previous verdict used up);
 *    - back to back: verdicts with no pause at all.
 * Targets: warm p95 <= 150 ms for each language; the boundary <= 2x the earlier median.
 *
 * Run alone: npx tsx scripts/bench/guard-verdicts.ts
 */
import { execFile } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createArtifact } from "../../server/engine";
import { GUARD_LANGUAGES, type GuardLanguage } from "../../server/guards/language";
import { createGuard } from "../../server/guards/registry";
import { discardWarmSandboxes } from "../../server/sandbox/python/warm-pool";
import { twoHundredLineArtifact } from "./two-hundred-line-artifacts";

const RUNS = 15;
const KINDS = ["syntax", "security", "test"] as const;
const WARM_RUNS = 30;
const COLD_PROCESSES = 5;
const COLD_POOL_RUNS = 10;
const WARM_PAUSE_MS = 300;
/** Medians measured before the boundary (issue 15), for the ratio. */
const PREVIOUS_MEDIAN_MS: Record<GuardLanguage, number> = { javascript: 120, typescript: 120, python: 51 };
const WARM_P95_TARGET_MS = 150;
const COLD_CHILD_FLAG = "--cold-child";

function testGuard(language: GuardLanguage) {
  const { artifact: content, tests } = twoHundredLineArtifact(language);
  return { guard: createGuard({ kind: "test", test: tests }, { language }), artifact: createArtifact({ id: "bench", content, version: 1, parentId: null }) };
}

/** One test verdict; throws unless it passed (a benchmark of failures would measure the wrong thing). */
async function timedVerdict(language: GuardLanguage): Promise<number> {
  const { guard, artifact } = testGuard(language);
  const started = performance.now();
  const result = await guard.validate(artifact, {});
  const duration = performance.now() - started;
  if (!result.passed) throw new Error(`${language} test verdict did not pass: ${result.feedback.split("\n")[0]}`);
  return duration;
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function medianMs(kind: (typeof KINDS)[number], language: GuardLanguage): Promise<{ medianMs: number; verdict: string }> {
  const { artifact: content, tests } = twoHundredLineArtifact(language);
  const guard = createGuard(kind === "test" ? { kind, test: tests } : { kind }, { language });
  const artifact = createArtifact({ id: "bench", content, version: 1, parentId: null });
  const durations: number[] = [];
  let verdict = "";
  for (let i = 0; i < RUNS + 2; i++) {
    const started = performance.now();
    const result = await guard.validate(artifact, {});
    if (i >= 2) durations.push(performance.now() - started); // the first two runs warm up caches and JITs
    verdict = result.passed ? "passed" : `FAILED: ${result.feedback.split("\n")[0]}`;
  }
  return { medianMs: percentile(durations, 0.5), verdict };
}

/** The first verdict of a fresh Node process, measured inside it. */
function coldProcessMs(language: GuardLanguage): Promise<number> {
  const tsx = fileURLToPath(new URL("../../node_modules/tsx/dist/cli.mjs", import.meta.url));
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [tsx, fileURLToPath(import.meta.url), COLD_CHILD_FLAG, language], { timeout: 120_000 }, (error, stdout) => {
      const value = Number(/^cold-ms (\S+)$/m.exec(stdout)?.[1]);
      if (error || !Number.isFinite(value)) reject(error ?? new Error(`no timing from the child: ${stdout.slice(0, 300)}`));
      else resolve(value);
    });
  });
}

interface SandboxFigures {
  readonly coldProcess: readonly number[];
  readonly coldPool: readonly number[];
  readonly warm: readonly number[];
  readonly backToBack: readonly number[];
}

async function sandboxFigures(language: GuardLanguage): Promise<SandboxFigures> {
  const coldProcess: number[] = [];
  for (let i = 0; i < COLD_PROCESSES; i++) coldProcess.push(await coldProcessMs(language));
  await timedVerdict(language); // this process's own first verdict: finds the interpreter, fills the pools
  const coldPool: number[] = [];
  if (language === "python") {
    for (let i = 0; i < COLD_POOL_RUNS; i++) {
      await pause(WARM_PAUSE_MS);
      discardWarmSandboxes();
      coldPool.push(await timedVerdict(language));
    }
  }
  const warm: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) {
    await pause(WARM_PAUSE_MS);
    warm.push(await timedVerdict(language));
  }
  const backToBack: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) backToBack.push(await timedVerdict(language));
  return { coldProcess, coldPool, warm, backToBack };
}

function cell(values: readonly number[]): string {
  return values.length === 0 ? "-".padStart(15) : `${percentile(values, 0.5).toFixed(0)} / ${percentile(values, 0.95).toFixed(0)}`.padStart(15);
}

export async function benchGuardVerdicts(): Promise<void> {
  console.log(`\nGuard verdicts on a 200-line artifact (median of ${RUNS} runs, through createGuard):\n`);
  console.log(`${"language".padEnd(12)} ${KINDS.map((kind) => `${kind} ms`.padStart(13)).join(" ")}   verdicts`);
  for (const language of GUARD_LANGUAGES) {
    const results = [];
    for (const kind of KINDS) results.push(await medianMs(kind, language));
    const cells = results.map((result) => result.medianMs.toFixed(1).padStart(13)).join(" ");
    console.log(`${language.padEnd(12)} ${cells}   ${results.map((result) => result.verdict).join(", ")}`);
  }

  console.log(
    `\nSandboxed test verdict, ms as median / p95 (cold: ${COLD_PROCESSES} fresh processes, ${COLD_POOL_RUNS} fresh pools; warm: ${WARM_RUNS} runs ${WARM_PAUSE_MS} ms apart; back to back: ${WARM_RUNS} runs):\n`,
  );
  console.log(`${"language".padEnd(12)} ${["cold process", "cold pool", "warm", "back to back"].map((title) => title.padStart(15)).join(" ")}   before  warm/before  targets (warm p95 <= ${WARM_P95_TARGET_MS}, <= 2x before)`);
  for (const language of GUARD_LANGUAGES) {
    const figures = await sandboxFigures(language);
    const warmMedian = percentile(figures.warm, 0.5);
    const warmP95 = percentile(figures.warm, 0.95);
    const before = PREVIOUS_MEDIAN_MS[language];
    const ratio = warmMedian / before;
    const verdict = warmP95 <= WARM_P95_TARGET_MS && ratio <= 2 ? "met" : "MISSED";
    const cells = [figures.coldProcess, figures.coldPool, figures.warm, figures.backToBack].map(cell).join(" ");
    console.log(`${language.padEnd(12)} ${cells}   ${String(before).padStart(6)}  ${`${ratio.toFixed(2)}x`.padStart(11)}  ${verdict}`);
  }
}

if (process.argv[2] === COLD_CHILD_FLAG) {
  const language = process.argv[3] as GuardLanguage;
  timedVerdict(language).then(
    (ms) => {
      console.log(`cold-ms ${ms.toFixed(1)}`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  benchGuardVerdicts().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
