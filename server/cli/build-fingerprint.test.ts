import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { computeBuildFingerprint, isBuildStale, recordBuildFingerprint } from "./build-fingerprint";

let root: string;

function write(path: string, content: string) {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, content);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "dualstate-fingerprint-"));
  write("app/page.tsx", "export default function Page() { return null; }");
  write("server/engine/index.ts", "export {};");
  write("components/button.tsx", "export const Button = null;");
  write("package-lock.json", "{}");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("computeBuildFingerprint", () => {
  it("is a stable sha256 hex digest of the same sources", () => {
    const fingerprint = computeBuildFingerprint(root);
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(computeBuildFingerprint(root)).toBe(fingerprint);
  });

  it("changes when a file under app/ changes", () => {
    const before = computeBuildFingerprint(root);
    write("app/page.tsx", "export default function Page() { return 1; }");
    expect(computeBuildFingerprint(root)).not.toBe(before);
  });

  it("changes when a file is added, or renamed with the same content", () => {
    const before = computeBuildFingerprint(root);
    write("app/new/page.tsx", "x");
    const added = computeBuildFingerprint(root);
    expect(added).not.toBe(before);
    rmSync(join(root, "app/new/page.tsx"));
    write("app/other/page.tsx", "x");
    expect(computeBuildFingerprint(root)).not.toBe(added);
  });

  it("changes with a top-level build input such as next.config.ts", () => {
    const before = computeBuildFingerprint(root);
    write("next.config.ts", "export default {};");
    expect(computeBuildFingerprint(root)).not.toBe(before);
  });

  it("ignores *.test.ts and *.test.tsx files", () => {
    const before = computeBuildFingerprint(root);
    write("app/page.test.tsx", "test 1");
    write("server/engine/agent/workflow.test.ts", "test 2");
    expect(computeBuildFingerprint(root)).toBe(before);
    write("server/engine/agent/workflow.test.ts", "test 2, edited");
    expect(computeBuildFingerprint(root)).toBe(before);
  });

  it("ignores files outside the build inputs", () => {
    const before = computeBuildFingerprint(root);
    write("e2e/run.spec.ts", "x");
    write("README.md", "docs");
    write("data/dualstate.db", "db");
    expect(computeBuildFingerprint(root)).toBe(before);
  });
});

describe("isBuildStale", () => {
  it("is stale without .next/BUILD_ID", () => {
    expect(isBuildStale(root, computeBuildFingerprint(root))).toBe(true);
  });

  it("is stale with a BUILD_ID but no recorded fingerprint", () => {
    write(".next/BUILD_ID", "abc");
    expect(isBuildStale(root, computeBuildFingerprint(root))).toBe(true);
  });

  it("is fresh once the fingerprint is recorded, and stale again after a source change", () => {
    write(".next/BUILD_ID", "abc");
    recordBuildFingerprint(root, computeBuildFingerprint(root));
    expect(isBuildStale(root, computeBuildFingerprint(root))).toBe(false);

    write("server/engine/index.ts", "export const changed = true;");
    expect(isBuildStale(root, computeBuildFingerprint(root))).toBe(true);
  });

  it("is stale when the build itself is gone even if a fingerprint remains", () => {
    write(".next/BUILD_ID", "abc");
    recordBuildFingerprint(root, computeBuildFingerprint(root));
    rmSync(join(root, ".next/BUILD_ID"));
    expect(isBuildStale(root, computeBuildFingerprint(root))).toBe(true);
  });
});
