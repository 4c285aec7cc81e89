/**
 * Realistic 200-line artifacts for the guard benchmark: forty small functions, five lines each,
 * plus tests that call a few of them, in each language.
 */
import type { GuardLanguage } from "../../server/guards/language";

const FUNCTIONS = 40;

function javascript(typed: boolean): { artifact: string; tests: string } {
  const param = typed ? "x: number" : "x";
  const result = typed ? ": number" : "";
  const lines: string[] = [];
  for (let i = 0; i < FUNCTIONS; i++) {
    lines.push(`export function step${i}(${param})${result} {`, `  const y = x + ${i};`, `  if (y > 100) return y - 1;`, `  return y * 2;`, `}`);
  }
  const tests = [`test("step0 doubles", () => { expect(step0(1)).toBe(2); });`, `test("step39 clamps", () => { expect(step39(200)).toBe(238); });`].join("\n");
  return { artifact: `${lines.join("\n")}\n`, tests };
}

function python(): { artifact: string; tests: string } {
  const lines: string[] = [];
  for (let i = 0; i < FUNCTIONS; i++) {
    lines.push(`def step${i}(x):`, `    y = x + ${i}`, `    if y > 100:`, `        return y - 1`, `    return y * 2`);
  }
  const tests = ["def test_step0_doubles():", "    assert step0(1) == 2", "", "def test_step39_clamps():", "    assert step39(200) == 238", ""].join("\n");
  return { artifact: `${lines.join("\n")}\n`, tests };
}

export function twoHundredLineArtifact(language: GuardLanguage): { artifact: string; tests: string } {
  return language === "python" ? python() : javascript(language === "typescript");
}
