import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDatasetFile } from "./parse-dataset-file";

const folder = join(process.cwd(), "examples", "datasets");
const workflows = new Set(readdirSync(join(process.cwd(), "examples")).filter((name) => name.endsWith(".yaml")).map((name) => name.replace(/\.yaml$/, "")));

describe("example datasets", () => {
  const files = readdirSync(folder);

  it("ship at least one file per format", () => {
    expect(files.some((name) => name.endsWith(".jsonl"))).toBe(true);
    expect(files.some((name) => name.endsWith(".csv"))).toBe(true);
    expect(files.some((name) => name.endsWith(".yaml"))).toBe(true);
  });

  it.each(files)("%s parses, with unique keys", (name) => {
    const result = parseDatasetFile(name, readFileSync(join(folder, name), "utf8"));
    expect(result.ok ? [] : result.errors).toEqual([]);
    if (!result.ok) return;
    expect(result.cases.length).toBeGreaterThan(1);
    expect(new Set(result.cases.map((item) => item.key)).size).toBe(result.cases.length);
  });

  it("the JSONL and YAML files are named after an example workflow they are cases for", () => {
    for (const name of files.filter((file) => !file.endsWith(".csv"))) expect(workflows).toContain(name.replace(/\.(jsonl|yaml)$/, ""));
  });
});
