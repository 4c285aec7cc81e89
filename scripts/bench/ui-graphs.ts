/**
 * Large graphs in the browser (issue 8): a provenance graph of 1,000 artifacts and a designer
 * canvas of 200 states, each opened in Debian's chromium through Playwright against the real
 * server (`dualstate start`, which builds first when the sources changed).
 *
 *   first render   navigation start → every node of the graph laid out and on the page
 *   panning        a two-second drag across the canvas; the browser's frame intervals
 *                  (requestAnimationFrame) meanwhile: median, 95th percentile, worst, and the
 *                  share of frames slower than 50 ms (visible stutter)
 *
 * Seeded straight into a fresh SQLite database: a 250-step run with 4 attempts per step chained
 * by refinement, each step's last attempt a dependency of the next step's guard; a 200-state
 * workflow document, saved through the same validation as the designer's Save.
 * BENCH_UI=0 leaves this section out.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "@playwright/test";
import { createDb, type Db, type Prisma } from "../../server/persistence/db";
import { migrateDatabase } from "../../server/persistence/migrations/migrate";
import { saveWorkflowDocument } from "../../server/services/workflows/save-workflow-document";

const ARTIFACT_STEPS = 250;
const ATTEMPTS_PER_STEP = 4;
const DESIGNER_STATES = 200;
const PORT = Number(process.env.BENCH_UI_PORT ?? 3190);
const BASE_URL = `http://127.0.0.1:${PORT}`;
const ADMIN = { email: "bench@dualstate.test", password: "bench-password-123" };
const PAN_MS = 2_000;
const STUTTER_MS = 50;

interface GraphFigures {
  readonly firstRenderMs: number;
  readonly nodes: number;
  readonly frames: { median: number; p95: number; worst: number; stutter: number; count: number };
}

/** A run whose provenance holds ARTIFACT_STEPS × ATTEMPTS_PER_STEP artifacts. */
async function seedLargeRun(db: Db, workflowVersionId: string): Promise<string> {
  const runId = randomUUID();
  await db.run.create({ data: { id: runId, workflowVersionId, specification: "bench: a large provenance graph", status: "succeeded", workflowState: {}, attemptCount: ARTIFACT_STEPS * ATTEMPTS_PER_STEP } });
  const artifacts: Prisma.ArtifactCreateManyInput[] = [];
  const dependencies: { artifactId: string; name: string; dependencyId: string }[] = [];
  let previousStepLast: string | null = null;
  const started = Date.now();
  for (let step = 0; step < ARTIFACT_STEPS; step++) {
    let parentId: string | null = null;
    for (let attempt = 1; attempt <= ATTEMPTS_PER_STEP; attempt++) {
      const id = randomUUID();
      const passed = attempt === ATTEMPTS_PER_STEP;
      const content = `// step ${step}, attempt ${attempt}\nexport function f${step}(x: number) {\n  return x + ${attempt};\n}\n`;
      artifacts.push({
        id,
        runId,
        stepName: `step_${step}`,
        guardId: `g_${step}`,
        attempt,
        parentId,
        content,
        contentHash: randomUUID().replaceAll("-", "").padEnd(64, "0"),
        language: "typescript",
        passed,
        fatal: false,
        feedback: passed ? "" : `attempt ${attempt} failed: expected f${step}(1) to be ${ATTEMPTS_PER_STEP + 1}`,
        createdAt: new Date(started + step * ATTEMPTS_PER_STEP + attempt),
      });
      if (previousStepLast) dependencies.push({ artifactId: id, name: "previous", dependencyId: previousStepLast });
      parentId = id;
    }
    previousStepLast = parentId;
  }
  await db.artifact.createMany({ data: artifacts });
  await db.artifactDependency.createMany({ data: dependencies });
  return runId;
}

/** A valid 200-state workflow: a chain of action-pair states, every tenth with a side branch back. */
function largeWorkflowDocument(name: string): Record<string, unknown> {
  const states = Array.from({ length: DESIGNER_STATES }, (_, index) => `s${index}`);
  const transitions = states.slice(0, -1).map((from, index) => ({ from, to: states[index + 1], condition: `g_${index}` }));
  for (let index = 10; index < DESIGNER_STATES - 1; index += 10) transitions.push({ from: states[index]!, to: states[index - 5]!, condition: `not g_${index}` });
  const steps = states.slice(0, -1).map((state, index) => ({
    name: `step_${index}`,
    type: "action_pair",
    in_state: state,
    guard_id: `g_${index}`,
    prompt: { task: `Part ${index} of {specification}` },
    guards: [{ kind: "syntax" }],
    max_retries: 2,
  }));
  return {
    workflow: {
      name,
      description: "bench: a 200-state designer canvas",
      specification: "bench",
      language: "typescript",
      state_machine: { states, initial_state: states[0], final_states: [states.at(-1)], transitions },
      steps,
    },
  };
}

function startServer(databaseUrl: string): ChildProcess {
  const server = spawn(process.execPath, ["bin/dualstate.mjs", "start", "--hostname", "127.0.0.1"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(PORT), DUALSTATE_ADMIN_EMAIL: ADMIN.email, DUALSTATE_ADMIN_PASSWORD: ADMIN.password, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.resume();
  server.stderr?.resume();
  return server;
}

async function waitForServer(server: ChildProcess, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode} before it was ready`);
    try {
      if ((await fetch(`${BASE_URL}/sign-in`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the server on ${BASE_URL} was not ready within ${timeoutMs / 1000} s`);
}

const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;

/** Opens `path`, waits until the graph is drawn, then pans across it and records the frames. */
async function measureGraph(page: Page, path: string): Promise<GraphFigures> {
  await page.goto(path);
  try {
    // Laid out and drawn: nodes on the page (only the visible ones where the view culls), and
    // two more frames painted after that.
    await page.waitForFunction(() => document.querySelectorAll(".react-flow__node").length > 0, undefined, { timeout: 120_000, polling: 16 });
  } catch (error) {
    const screenshot = join(tmpdir(), `dualstate-bench-ui-${Date.now()}.png`);
    await page.screenshot({ path: screenshot });
    throw new Error(`${path}: no graph on the page after 120 s (screenshot: ${screenshot})`, { cause: error });
  }
  const firstRenderMs = await page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now())))));
  const nodes = await page.locator(".react-flow__node").count();
  const pane = page.locator(".react-flow__pane").first();
  const box = await pane.boundingBox();
  if (!box) throw new Error(`${path}: the canvas is not on screen`);
  // As a string: tsx would wrap named functions in a helper the page does not have.
  await page.evaluate(`(() => {
    const frames = [];
    window.benchFrames = frames;
    let last = performance.now();
    const tick = (now) => {
      frames.push(now - last);
      last = now;
      if (frames.length < 10000) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  const from = { x: box.x + box.width * 0.8, y: box.y + box.height * 0.7 };
  const to = { x: box.x + box.width * 0.2, y: box.y + box.height * 0.3 };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  const moves = 120;
  for (let step = 1; step <= moves; step++) {
    const t = step / moves;
    // There and back, so the drag covers parts of the graph that start off screen.
    const k = t < 0.5 ? t * 2 : 2 - t * 2;
    await page.mouse.move(from.x + (to.x - from.x) * k, from.y + (to.y - from.y) * k);
    await page.waitForTimeout(PAN_MS / moves);
  }
  await page.mouse.up();
  const intervals = (await page.evaluate<number[]>("window.benchFrames")).slice(1).sort((a, b) => a - b);
  return {
    firstRenderMs,
    nodes,
    frames: {
      median: percentile(intervals, 0.5),
      p95: percentile(intervals, 0.95),
      worst: intervals.at(-1) ?? 0,
      stutter: intervals.filter((interval) => interval > STUTTER_MS).length / Math.max(1, intervals.length),
      count: intervals.length,
    },
  };
}

function printFigures(rows: [string, GraphFigures][]) {
  console.log(`\n${"graph".padEnd(34)} ${"drawn".padStart(6)} ${"first render".padStart(13)} ${"frame median".padStart(13)} ${"p95".padStart(8)} ${"worst".padStart(8)} ${">50 ms".padStart(8)}`);
  for (const [what, figures] of rows) {
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(
      `${what.padEnd(34)} ${String(figures.nodes).padStart(6)} ${ms(figures.firstRenderMs).padStart(13)} ${ms(figures.frames.median).padStart(13)} ${ms(figures.frames.p95).padStart(8)} ${ms(figures.frames.worst).padStart(8)} ${`${(figures.frames.stutter * 100).toFixed(1)}%`.padStart(8)}`,
    );
  }
  console.log(`(60 Hz is 16.7 ms a frame; panning ${PAN_MS / 1000} s in headless chromium on this machine)`);
}

export async function benchUiGraphs(): Promise<void> {
  if (process.env.BENCH_UI === "0") return;
  console.log(`\nLarge graphs in the browser: provenance of ${ARTIFACT_STEPS * ATTEMPTS_PER_STEP} artifacts, designer of ${DESIGNER_STATES} states`);
  const folder = mkdtempSync(join(tmpdir(), "dualstate-bench-ui-"));
  const databaseUrl = `file:${join(folder, "ui.db")}`;
  let server: ChildProcess | undefined;
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-quic"] });
  try {
    await migrateDatabase(databaseUrl);
    const db = createDb(databaseUrl);
    const workflowName = "bench-large-designer";
    const saved = await saveWorkflowDocument(db, { definition: largeWorkflowDocument(workflowName) });
    const version = await db.workflowVersion.findFirstOrThrow({ where: { workflowId: saved.id }, select: { id: true } });
    const runId = await seedLargeRun(db, version.id);
    await db.$disconnect();

    server = startServer(databaseUrl);
    await waitForServer(server);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const signIn = await context.request.post(`${BASE_URL}/api/auth/sign-in/email`, { data: ADMIN, headers: { origin: BASE_URL } });
    if (!signIn.ok()) throw new Error(`sign-in failed: ${signIn.status()} ${await signIn.text()}`);
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    // One warm-up visit each, so the figures are not the server's first compile of the route.
    await page.goto(`${BASE_URL}/runs/${runId}/provenance`);
    await page.goto(`${BASE_URL}/workflows/${workflowName}`);
    const provenance = await measureGraph(page, `${BASE_URL}/runs/${runId}/provenance`);
    const designer = await measureGraph(page, `${BASE_URL}/workflows/${workflowName}`);
    printFigures([
      [`provenance (${ARTIFACT_STEPS * ATTEMPTS_PER_STEP} artifacts)`, provenance],
      [`designer (${DESIGNER_STATES} states)`, designer],
    ]);
  } finally {
    await browser.close();
    server?.kill("SIGTERM");
    rmSync(folder, { recursive: true, force: true });
  }
}
