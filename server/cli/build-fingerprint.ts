import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

/** What the production build is made from; a change to any of it means the build is stale. */
const BUILD_INPUTS = ["app", "components", "server", "public", "next.config.ts", "postcss.config.mjs", "tsconfig.json", "package-lock.json", "prisma/models.prisma"];
const FINGERPRINT_FILE = join(".next", "dualstate-build-fingerprint");

function* filesUnder(path: string): Generator<string> {
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) yield* filesUnder(child);
    else if (!/\.test\.tsx?$/.test(entry.name)) yield child;
  }
}

/** Hash of the contents of every build input, in a stable order. Tests are left out: they do not ship. */
export function computeBuildFingerprint(root: string): string {
  const hash = createHash("sha256");
  for (const input of BUILD_INPUTS) {
    const path = join(root, input);
    if (!existsSync(path)) continue;
    const files = statSync(path).isDirectory() ? [...filesUnder(path)].sort() : [path];
    for (const file of files) hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}

/** True when there is no build, or it was made from other sources than the ones on disk. */
export function isBuildStale(root: string, fingerprint: string): boolean {
  const stamp = join(root, FINGERPRINT_FILE);
  if (!existsSync(join(root, ".next", "BUILD_ID")) || !existsSync(stamp)) return true;
  return readFileSync(stamp, "utf8").trim() !== fingerprint;
}

export function recordBuildFingerprint(root: string, fingerprint: string): void {
  writeFileSync(join(root, FINGERPRINT_FILE), `${fingerprint}\n`);
}
