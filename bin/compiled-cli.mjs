// The `dualstate` command as compiled JavaScript. Transpiling server/cli's TypeScript at every
// start cost seconds, so it is compiled once with esbuild (at `npm install`, else on the first
// start) into node_modules/.cache/dualstate/cli/, and compiled again when a source it was built
// from changes. Plain JavaScript on purpose: this file runs before anything can be transpiled.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, extname, join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";

/** The CLI's entry module, relative to the project folder. */
export const CLI_ENTRY = "server/cli/main.ts";
/** Changes whenever the build options below change, so caches from an older layout are rebuilt. */
const BUILD_FORMAT = 1;
/** Inputs that shape the build without being imported: path aliases, the module type. */
const CONFIG_INPUTS = ["tsconfig.json", "package.json", "bin/compiled-cli.mjs"];
/** An older build may still be loading chunks in a running process: it is removed only after this. */
const STALE_BUILD_MS = 60 * 60 * 1000;

export function cliCacheDir(root) {
  return join(root, "node_modules", ".cache", "dualstate", "cli");
}

/** Size and modification time: what tells a changed source from the one compiled. */
function stampOf(path) {
  const stat = statSync(path);
  return [stat.size, stat.mtimeMs];
}

/** The compiled entry when a build exists for this folder and none of its inputs changed since. */
export function freshCompiledEntry(root) {
  const cache = cliCacheDir(root);
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(cache, "current.json"), "utf8"));
  } catch {
    return null;
  }
  // The build embeds absolute source locations: a moved checkout is built again.
  if (manifest.format !== BUILD_FORMAT || manifest.root !== root) return null;
  for (const [file, [size, mtimeMs]] of Object.entries(manifest.inputs)) {
    let stamp;
    try {
      stamp = stampOf(join(root, file));
    } catch {
      return null; // a source was deleted or renamed
    }
    if (stamp[0] !== size || stamp[1] !== mtimeMs) return null;
  }
  return join(cache, manifest.build, "main.mjs");
}

/**
 * Files next to the sources (worker scripts, Python helpers, the bundled examples) are found
 * from `import.meta.url`; in a bundle that would name the bundle. Each source keeps its own
 * location instead, so those files are read from where they are in the project.
 */
function keepSourceLocations() {
  const loaders = { ".ts": "ts", ".mts": "ts", ".cts": "ts", ".tsx": "tsx", ".js": "js", ".mjs": "js", ".cjs": "js" };
  return {
    name: "dualstate-source-locations",
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const text = readFileSync(args.path, "utf8");
        if (!text.includes("import.meta.url")) return undefined;
        return { contents: text.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)), loader: loaders[extname(args.path)] ?? "ts" };
      });
    },
  };
}

/** Removes earlier builds nobody can still be loading. */
function pruneBuilds(cache, keep) {
  for (const name of readdirSync(cache)) {
    if (!name.startsWith("build-") || name === keep) continue;
    try {
      if (Date.now() - statSync(join(cache, name)).mtimeMs > STALE_BUILD_MS) rmSync(join(cache, name), { recursive: true, force: true });
    } catch {
      // Another start removed it first.
    }
  }
}

/**
 * Compiles the CLI into a directory of its own, then publishes it by renaming its manifest over
 * current.json: a start running at the same moment sees the old build or the new one, never half
 * a file. Two first starts at once each compile and use their own build; the last one published
 * stays current.
 */
export async function compileCli(root) {
  const cache = cliCacheDir(root);
  mkdirSync(cache, { recursive: true });
  const build = `build-${process.pid}-${Date.now().toString(36)}`;
  const outdir = join(cache, build);
  const { build: esbuild } = await import("esbuild");
  const result = await esbuild({
    absWorkingDir: root,
    entryPoints: { main: CLI_ENTRY },
    outdir,
    outExtension: { ".js": ".mjs" },
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    // Commands load their modules on demand (server/cli/main.ts): each becomes a chunk of its own.
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // Dependencies stay in node_modules, resolved from the cache folder inside it: native modules
    // (better-sqlite3), the Prisma runtime and WebAssembly files load as they always do.
    packages: "external",
    sourcemap: "linked",
    metafile: true,
    logLevel: "silent",
    plugins: [keepSourceLocations()],
  });
  const inputs = {};
  for (const file of [...Object.keys(result.metafile.inputs), ...CONFIG_INPUTS]) {
    const relativePath = relative(root, join(root, file));
    inputs[relativePath] = stampOf(join(root, relativePath));
  }
  const manifest = join(cache, `current.json.${basename(outdir)}.tmp`);
  writeFileSync(manifest, JSON.stringify({ format: BUILD_FORMAT, root, build, inputs }));
  renameSync(manifest, join(cache, "current.json"));
  pruneBuilds(cache, build);
  return join(outdir, "main.mjs");
}

/** The compiled CLI's entry, compiled first when there is none or its sources changed. */
export async function compiledEntry(root) {
  return freshCompiledEntry(root) ?? (await compileCli(root));
}
