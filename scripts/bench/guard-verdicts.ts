/**
 * Median time of a syntax, a security and a sandboxed test verdict on a 200-line artifact, for
 * each language, through the same guard objects a workflow uses (createGuard).
 */
import { performance } from "node:perf_hooks";
import { createArtifact } from "../../server/engine";
import { GUARD_LANGUAGES, type GuardLanguage } from "../../server/guards/language";
import { createGuard } from "../../server/guards/registry";
import { twoHundredLineArtifact } from "./two-hundred-line-artifacts";

const RUNS = 15;
const KINDS = ["syntax", "security", "test"] as const;

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
  durations.sort((a, b) => a - b);
  return { medianMs: durations[Math.floor(durations.length / 2)] ?? 0, verdict };
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
}
