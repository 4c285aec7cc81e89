import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { examplesFolder } from "../../services/examples/load-examples";
import { compileWorkflow } from "../../workflows/compile";
import { validateWorkflowDocument } from "../../workflows/definition";
import { CassetteError } from "./cassette";
import { MAX_CASSETTE_BYTES, readCassetteFile, readNamedCassette } from "./cassette-file";

const root = mkdtempSync(join(tmpdir(), "dualstate-cassette-dir-"));
const directory = join(root, "cassettes");
const outside = join(root, "outside");
mkdirSync(directory);
mkdirSync(outside);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const VALID = '{"steps": {"implement": ["x"]}}';
writeFileSync(join(directory, "demo.cassette.json"), VALID);
writeFileSync(join(directory, "exact.json"), VALID);
writeFileSync(join(outside, "secret.cassette.json"), '{"steps": {"implement": ["the secret"]}}');
symlinkSync(join(outside, "secret.cassette.json"), join(directory, "escape.cassette.json"));
symlinkSync("/etc/passwd", join(directory, "passwd.cassette.json"));
symlinkSync("/dev/zero", join(directory, "zero.cassette.json"));
symlinkSync(join(directory, "demo.cassette.json"), join(directory, "alias.cassette.json"));
mkdirSync(join(directory, "folder.cassette.json"));
execFileSync("mkfifo", [join(directory, "pipe.cassette.json")]);
writeFileSync(join(directory, "huge.cassette.json"), Buffer.alloc(MAX_CASSETTE_BYTES + 1, 0x20));
writeFileSync(join(directory, "text.cassette.json"), "root:x:0:0:root:/root:/bin/bash\n");

/** The error a read throws, checked to echo none of what the file holds. */
function failure(read: () => unknown): CassetteError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(CassetteError);
    const message = (error as Error).message;
    for (const leaked of ["root:x", "the secret", "/bin/bash"]) expect(message).not.toContain(leaked);
    return error as CassetteError;
  }
  throw new Error("expected the read to fail");
}

describe("readNamedCassette: a name in the cassette directory, nothing else", () => {
  it("reads name.cassette.json, an exact .json name, and a link that stays inside", () => {
    expect(readNamedCassette("demo", [directory]).steps).toEqual({ implement: ["x"] });
    expect(readNamedCassette("exact.json", [directory]).steps).toEqual({ implement: ["x"] });
    expect(readNamedCassette("alias", [directory]).steps).toEqual({ implement: ["x"] });
  });

  it("finds the bundled examples' cassettes when the examples folder is one of the directories", () => {
    expect(Object.keys(readNamedCassette("tdd-lru-cache", [directory, examplesFolder()]).steps)).toContain("implement");
  });

  it.each(["/etc/passwd", "../outside/secret", "..", "a/b", "demo/../../outside/secret", ".hidden", "x\u0000y", "é", "a".repeat(129)])("refuses the name %j without reading anything", (name) => {
    expect(failure(() => readNamedCassette(name, [directory])).message).toMatch(/^cassette '\(invalid name\)': a cassette is named by letters, digits/);
  });

  it.each([
    ["escape", "cassette 'escape' resolves outside the cassette directory"],
    ["passwd", "cassette 'passwd' resolves outside the cassette directory"],
    ["zero", "cassette 'zero' resolves outside the cassette directory"],
    ["folder", "cassette 'folder' is not a regular file"],
    ["pipe", "cassette 'pipe' is not a regular file"],
    ["huge", "cassette 'huge' is larger than 8 MiB"],
    ["text", "cassette 'text': not valid JSON at line 1, column 1"],
    ["missing", "cassette 'missing' was not found: it is not in the cassette directory (DUALSTATE_CASSETTE_DIR) or the bundled examples"],
  ])("%s → %s", (name, message) => {
    const started = performance.now();
    expect(failure(() => readNamedCassette(name, [directory])).message).toBe(message);
    // A FIFO without a writer or an endless device would block or grow forever; these return at once.
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("reads nothing when no directory is configured", () => {
    expect(failure(() => readNamedCassette("demo", [])).message).toBe("cassette 'demo' was not found: no cassette directory is configured (DUALSTATE_CASSETTE_DIR)");
  });
});

describe("readCassetteFile: the operator's own --cassette FILE, with the same checks", () => {
  it.each([
    ["/dev/zero", "is not a regular file"],
    ["/etc/passwd", "not valid JSON at line 1, column 1"],
    [join(directory, "pipe.cassette.json"), "is not a regular file"],
    [join(directory, "huge.cassette.json"), "is larger than 8 MiB"],
    [directory, "is not a regular file"],
  ])("%s → %s, without its content", (path, problem) => {
    expect(failure(() => readCassetteFile(path)).message).toContain(problem);
  });

  it("reads a regular file", () => {
    expect(readCassetteFile(join(directory, "demo.cassette.json")).steps).toEqual({ implement: ["x"] });
  });
});

describe("a workflow document never names a path", () => {
  const document = (cassette: string) => `
name: named-cassette
specification: x
state_machine: { states: [w, done], initial_state: w, final_states: [done], transitions: [{ from: w, to: done, condition: g }] }
steps:
  - { name: implement, in_state: w, guard_id: g, generator: { kind: replay, cassette: ${JSON.stringify(cassette)} }, prompt: x, guards: [{ kind: syntax, language: python }] }
`;

  it.each(["/etc/passwd", "/dev/zero", "../../etc/passwd", "examples/tdd-lru-cache.cassette.json"])("%s is refused when the document is validated, naming the field", (path) => {
    const result = validateWorkflowDocument(document(path), "doc.yaml");
    expect(result.ok).toBe(false);
    const messages = result.ok ? [] : result.problems.map((problem) => `${problem.path}: ${problem.message}`);
    expect(messages.join("\n")).toMatch(/cassette.*must be a cassette name/);
  });

  it("a name is looked up in the configured directories when the run is compiled (the bundled examples included)", () => {
    const result = validateWorkflowDocument(document("tdd-lru-cache"), "doc.yaml");
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(compileWorkflow(result.definition, { cassetteDirectories: [directory, examplesFolder()] }).steps).toHaveLength(1);
    expect(() => compileWorkflow(result.definition, { cassetteDirectories: [directory] })).toThrow("steps[0].generator.cassette: cassette 'tdd-lru-cache' was not found");
  });
});
