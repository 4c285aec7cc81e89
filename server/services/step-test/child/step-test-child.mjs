// A step test's own process (see ../test-step-in-child.ts). The Next.js server bundle cannot hold
// the guards' sandboxes (their scripts and WebAssembly are loaded from their source folders), so
// the web server runs each test here, from the TypeScript sources through tsx, like the CLI.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

register({ tsconfig: fileURLToPath(new URL("../../../../tsconfig.json", import.meta.url)) });
const { runStepTestChild } = await import("./run-step-test-child.ts");
// Exit at once: warm sandbox workers and timers must not keep a finished test's process alive.
process.exit(await runStepTestChild(process.stdin, process.stdout));
