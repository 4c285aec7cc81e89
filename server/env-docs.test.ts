import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { envSchema } from "./env";
import { projectRoot } from "./persistence/project-root";

const root = projectRoot();
const read = (path: string) => readFileSync(join(root, path), "utf8");
const documents = ["README.md", ...readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];

/** The variables named in the first cell of a Markdown table row, in README.md and docs/. */
function tabledVariables(): Set<string> {
  const names = new Set<string>();
  for (const path of documents) {
    for (const line of read(path).split("\n")) {
      const firstCell = /^\|([^|]*)\|/.exec(line)?.[1] ?? "";
      for (const match of firstCell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(match[1]!);
    }
  }
  return names;
}

// Users configure Dualstate from .env.example and the configuration tables: every variable the
// schema reads must be findable in both, or it is a setting nobody can discover.
describe("the environment variables server/env.ts reads", () => {
  const variables = Object.keys(envSchema.shape);

  it("are each in .env.example", () => {
    const example = read(".env.example");
    expect(variables.filter((name) => !new RegExp(`\\b${name}\\b`).test(example))).toEqual([]);
  });

  it("each have a row in a configuration table of README.md or docs/", () => {
    const tabled = tabledVariables();
    expect(variables.filter((name) => !tabled.has(name))).toEqual([]);
  });
});
