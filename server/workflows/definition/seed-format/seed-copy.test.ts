import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SEEDS_FOLDER } from "./testing/seed-examples";

/** The specification beside the project, where the team keeps it; CI clones hold only docs/seeds. */
const ORIGINAL = join(SEEDS_FOLDER, "../../../shared/seeds");

describe("docs/seeds", () => {
  it("holds the five seed documents and their README", () => {
    expect(readdirSync(SEEDS_FOLDER).sort()).toEqual(["000_0c2540e4d8577cc4.txt", "001_1cf4eeaf39e76f72.txt", "002_ed90754b5c38b801.txt", "003_e4fffd2badff2e62.txt", "004_23fb63e16330c869.txt", "README.md"]);
  });

  it.runIf(existsSync(ORIGINAL))("is a byte-for-byte copy of ../shared/seeds", () => {
    for (const file of readdirSync(ORIGINAL)) expect(readFileSync(join(SEEDS_FOLDER, file), "utf8"), file).toBe(readFileSync(join(ORIGINAL, file), "utf8"));
  });
});
