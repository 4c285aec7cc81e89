import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SEEDS_FOLDER } from "./testing/seed-examples";

/** The specification beside the project, where the team keeps it; CI clones hold only docs/seeds. */
const ORIGINAL = join(SEEDS_FOLDER, "../../../shared/seeds");

describe("docs/seeds", () => {
  // The two seeds whose examples the tests load (001's step list, 004's agent.yaml), and the index.
  it("holds the seed documents whose examples the tests load, and the seeds' README", () => {
    expect(readdirSync(SEEDS_FOLDER).sort()).toEqual(["001_1cf4eeaf39e76f72.txt", "004_23fb63e16330c869.txt", "README.md"]);
  });

  it.runIf(existsSync(ORIGINAL))("is a byte-for-byte copy of those files in ../shared/seeds", () => {
    for (const file of readdirSync(SEEDS_FOLDER)) expect(readFileSync(join(SEEDS_FOLDER, file), "utf8"), file).toBe(readFileSync(join(ORIGINAL, file), "utf8"));
  });
});
