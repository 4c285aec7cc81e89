import { cancelRun } from "@/server/services/runs/cancel-run";
import { createRun } from "@/server/services/runs/create-run";
import { getRunDetail } from "@/server/services/runs/get-run-detail";
import { getRunExecution } from "@/server/services/runs/execution/get-run-execution";
import { getProvenance } from "@/server/services/provenance/get-provenance";
import { rerunRun } from "@/server/services/runs/rerun-run";
import { listRecentRuns } from "@/server/services/runs/list-recent-runs";
import { listRuns } from "@/server/services/runs/list-runs";
import { compareRuns } from "@/server/services/runs/compare/compare-runs";
import { findForkPoint } from "@/server/services/runs/fork/find-fork-point";
import { forkRun } from "@/server/services/runs/fork/fork-run";
import { followLiveCall } from "@/server/services/runs/follow-live-call";
import { cancelRunInput, compareRunsInput, createRunInput, forkPointInput, forkRunInput, getRunInput, listRecentRunsInput, listRunsInput, runEventsInput } from "../schemas/run";
import { tracked } from "@trpc/server";
import { followRunEvents } from "@/server/services/runs/follow-run-events";
import { liveStream } from "../live-streams";
import { createTRPCRouter, permittedProcedure, viewerProcedure } from "../trpc";

export const runRouter = createTRPCRouter({
  listRecent: viewerProcedure.input(listRecentRunsInput).query(({ ctx, input }) => listRecentRuns(ctx.db, input)),
  list: viewerProcedure.input(listRunsInput).query(({ ctx, input }) => listRuns(ctx.db, input)),
  get: viewerProcedure.input(getRunInput).query(({ ctx, input }) => getRunDetail(ctx.db, input)),
  /** What the run waits for, its turns, execution edges, parent and sub-runs, and what the watchdog did (each list bounded). */
  execution: viewerProcedure.input(getRunInput).query(({ ctx, input }) => getRunExecution(ctx.db, input.id)),
  /** The run's ledger as it grows, over SSE; each event's id is its seq, so a reconnect resumes. */
  events: viewerProcedure.input(runEventsInput).subscription(({ ctx, input, signal }) =>
    liveStream(ctx, signal, async function* (streamSignal) {
      for await (const event of followRunEvents(ctx.db, input.id, Number(input.lastEventId ?? 0) || 0, streamSignal)) yield tracked(String(event.seq), event);
    }),
  ),
  /** The text of the run's model call in flight as it streams (null when none is), over SSE. */
  liveCall: viewerProcedure.input(getRunInput).subscription(({ ctx, input, signal }) => liveStream(ctx, signal, (streamSignal) => followLiveCall(ctx.db, input.id, streamSignal))),
  /** What a fork from this attempt starts from: its key, recorded prompt and the feedback it received. */
  forkPoint: viewerProcedure.input(forkPointInput).query(({ ctx, input }) => findForkPoint(ctx.db, input.id, input.artifactId)),
  compare: viewerProcedure.input(compareRunsInput).query(({ ctx, input }) => compareRuns(ctx.db, input)),
  provenance: viewerProcedure.input(getRunInput).query(({ ctx, input }) => getProvenance(ctx.db, input.id)),
  create: permittedProcedure("start_run").input(createRunInput).mutation(({ ctx, input }) => createRun(ctx.db, input, ctx.actor.email)),
  rerun: permittedProcedure("start_run").input(getRunInput).mutation(({ ctx, input }) => rerunRun(ctx.db, input, ctx.actor.email)),
  fork: permittedProcedure("fork_run").input(forkRunInput).mutation(({ ctx, input }) => forkRun(ctx.db, input, ctx.actor.email)),
  cancel: permittedProcedure("cancel_run").input(cancelRunInput).mutation(({ ctx, input }) => cancelRun(ctx.db, input, ctx.actor.email)),
});
