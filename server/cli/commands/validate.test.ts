import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RELIES_ON_A_DEFAULT } from "../../workflows/fixtures/relies-on-a-default";
import { main } from "../main";
import { USAGE } from "../usage";

const folder = mkdtempSync(join(tmpdir(), "dualstate-validate-cli-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const fixtures = join(import.meta.dirname, "..", "..", "workflows", "definition", "fixtures");

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["validate", ...argv], {} as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
  return { code, out: out.join(""), err: err.join("") };
}

describe("dualstate validate", () => {
  it("prints a one-line summary and exits 0 for a valid workflow", async () => {
    expect(await cli(join(fixtures, "tdd-lru-cache.yaml"))).toEqual({ code: 0, out: "tdd-lru-cache: valid (3 states, 2 steps, 3 guards)", err: "" });
    expect(await cli(join(fixtures, "agent-loop.yaml"))).toEqual({ code: 0, out: "agent-loop: valid (6 states, 5 steps, 3 guards)", err: "" });
    expect(await cli(join(import.meta.dirname, "..", "..", "..", "examples", "prime-validator.yaml"))).toEqual({ code: 0, out: "prime-validator: valid (2 states, 1 step, 2 guards)", err: "" });
  });

  it("prints one line per problem and exits 1 for an invalid workflow", async () => {
    const file = join(folder, "bad.yaml");
    writeFileSync(
      file,
      ["name: bad", "state_machine:", "  states: [a, b]", "  initial_state: a", "  final_states: [b]", "steps:", "  - { name: s, in_state: c, prompt: hi, colour: red }", ""].join("\n"),
    );
    const { code, out, err } = await cli(file);
    expect(code).toBe(1);
    expect(out).toBe("");
    // In document order; the structural checks run beside the unknown key (a has no way to b at all).
    expect(err.split("\n")).toEqual([
      'state_machine.states[0] (line 3, column 12): state "a" has no path to a final state (b)',
      'steps[0].in_state (line 7, column 26): "c" is not a declared state (state_machine.states)',
      "steps[0].colour (line 7, column 49): unknown key",
      // A state that can never be entered never runs: a warning, after the errors.
      'warning: state_machine.states[1] (line 3, column 15): state "b" is unreachable from the initial state "a"',
    ]);
  });

  it("a document that relies on a default: valid, exit 0, its warnings after the summary as `warning:` lines on stderr", async () => {
    const { code, out, err } = await cli(RELIES_ON_A_DEFAULT.file);
    expect(code).toBe(0);
    expect(out).toMatch(/^inferred-final-states: valid \(2 states, 1 step, 0 guards\), \d+ warnings?$/);
    const lines = err.split("\n");
    expect(out).toContain(`, ${lines.length} warning`);
    // Every line is a warning with its path (and place), none reads as an error.
    for (const line of lines) expect(line).toMatch(/^warning: [\w.[\]]+( \(line \d+(, column \d+)?\))?: \S/);
    expect(lines.some((line) => RELIES_ON_A_DEFAULT.warning.test(line))).toBe(true);
  });

  it("--json: one object with problems and warnings apart, exit 0 when valid with warnings and 1 when invalid", async () => {
    const valid = await cli(RELIES_ON_A_DEFAULT.file, "--json");
    expect(valid.code).toBe(0);
    expect(valid.err).toBe("");
    const report = JSON.parse(valid.out) as { ok: boolean; workflow: unknown; problems: unknown[]; warnings: { path: string; message: string }[] };
    expect(report).toMatchObject({ ok: true, workflow: { name: "inferred-final-states", states: 2, steps: 1, guards: 0 }, problems: [] });
    expect(report.warnings.some((warning) => RELIES_ON_A_DEFAULT.warning.test(`${warning.path}: ${warning.message}`))).toBe(true);

    const file = join(folder, "bad-with-default.yaml");
    writeFileSync(file, RELIES_ON_A_DEFAULT.text.replace("in_state: writing", "in_state: nowhere"));
    const invalid = await cli(file, "--json");
    expect(invalid.code).toBe(1);
    const answer = JSON.parse(invalid.out) as { ok: boolean; problems: { path: string; line: number; message: string }[]; warnings: unknown[] };
    expect(answer.ok).toBe(false);
    expect(answer.problems).toContainEqual(expect.objectContaining({ path: "workflow.steps[0].in_state", line: expect.any(Number), message: expect.stringContaining('"nowhere" is not a declared state') }));
    expect(answer.warnings).toEqual(expect.any(Array));
    expect(await cli(join(fixtures, "tdd-lru-cache.yaml"), "--json").then(({ out }) => JSON.parse(out) as unknown)).toEqual({ ok: true, workflow: { name: "tdd-lru-cache", states: 3, steps: 2, guards: 3 }, problems: [], warnings: [] });
  });

  it("reports syntax errors with line and column", async () => {
    const file = join(folder, "syntax.json");
    writeFileSync(file, '{"name": "x",\n  "steps": [}\n');
    const { code, err } = await cli(file);
    expect(code).toBe(1);
    expect(err).toMatch(/^document \(line 2, column \d+\): invalid JSON/);
  });

  it("exits 2 with a message when the file is missing", async () => {
    expect(await cli(join(folder, "missing.yaml"))).toEqual({ code: 2, out: "", err: `dualstate validate: cannot read ${join(folder, "missing.yaml")}: no such file` });
  });

  it.each([[[]], [["a.yaml", "b.yaml"]], [["--strict"]], [["a.yaml", "--json=yes"]]])("exits 2 with the usage for %j", async (argv) => {
    const { code, err } = await cli(...argv);
    expect(code).toBe(2);
    expect(err).toMatch(/^dualstate validate: /);
    expect(err).toContain(USAGE);
  });
});
