#!/usr/bin/env node
/**
 * The registry these machines reach returns 404 for platform packages of other systems
 * (darwin/win32 builds of @next/swc-*, @tailwindcss/oxide-*), so a lockfile made here leaves
 * them out and `npm ci` then fails with "Missing: ... from lock file". This adds an optional
 * stub entry for each missing optional dependency, with the os/cpu its name implies, which
 * `npm ci` skips on Linux. Run it after every dependency change: npm run lockfile:fix
 */
import { readFileSync, writeFileSync } from "node:fs";

const LOCKFILE = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(LOCKFILE, "utf8"));

const present = new Set(Object.keys(lock.packages).map((key) => key.replace(/^.*node_modules\//, "")));
const platformOf = (name) => {
  const os = ["darwin", "win32", "freebsd", "android", "linux", "wasm32"].find((candidate) => name.includes(candidate));
  const cpu = ["arm64", "x64", "arm", "ia32", "wasm32"].find((candidate) => name.includes(`-${candidate}`));
  return { os: os === "wasm32" ? undefined : os, cpu };
};

let added = 0;
for (const entry of Object.values(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    if (present.has(name)) continue;
    const { os, cpu } = platformOf(name);
    lock.packages[`node_modules/${name}`] = {
      version,
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : {}),
    };
    present.add(name);
    added += 1;
  }
}

writeFileSync(LOCKFILE, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: added ${added} optional platform stub(s)`);
