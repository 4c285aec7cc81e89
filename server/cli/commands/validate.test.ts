import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
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
      'state_machine.states[1] (line 3, column 15): state "b" is unreachable from the initial state "a"',
      'steps[0].in_state (line 7, column 26): "c" is not a declared state (state_machine.states)',
      "steps[0].colour (line 7, column 49): unknown key",
    ]);
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

  it.each([[[]], [["a.yaml", "b.yaml"]], [["--strict"]]])("exits 2 with the usage for %j", async (argv) => {
    const { code, err } = await cli(...argv);
    expect(code).toBe(2);
    expect(err).toMatch(/^dualstate validate: /);
    expect(err).toContain(USAGE);
  });
});
