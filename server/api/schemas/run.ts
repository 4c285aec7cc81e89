import { z } from "zod";
import { startBudgetInput } from "./budget";
import { RUN_STATUSES } from "@/server/engine/run/run-record";
import { dateRangeFields, listPageFields } from "./list-page";

export const MAX_RECENT_RUNS = 100;

export const listRecentRunsInput = z
  .object({
    limit: z
      .number()
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(MAX_RECENT_RUNS, `must be at most ${MAX_RECENT_RUNS}`)
      .default(20),
    status: z.enum(RUN_STATUSES, { message: "must be a run status" }).optional(),
    workflow: z.string().trim().min(1, "must not be empty").optional(),
    /** The last run of the previous page (infinite queries pass it as the cursor). */
    cursor: z.object({ createdAt: z.date(), id: z.string().min(1) }).nullish(),
  })
  // prefault: a missing input is parsed as {}, so the limit default applies.
  .prefault({});

/** The runs page: search, filters and a page (bounds in ./list-page.ts). */
export const listRunsInput = z
  .object({
    ...listPageFields,
    ...dateRangeFields,
    status: z.enum(RUN_STATUSES, { message: "must be a run status" }).optional(),
    workflow: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters").optional(),
  })
  .prefault({});

export const getRunInput = z.object({
  id: z.string().trim().min(1, "must not be empty"),
});

export const createRunInput = z.object({
  workflowId: z.string().trim().min(1, "must not be empty"),
  version: z.number().int("must be a whole number").min(1, "must be at least 1").optional(),
  specification: z.string().trim().min(1, "must not be empty").max(100_000, "must be at most 100000 characters").optional(),
  variables: z.record(z.string(), z.union([z.boolean(), z.number(), z.string()])).optional(),
  generator: z.enum(["configured", "replay"]).optional(),
  /** A replay cassette's JSON text (the file a user chose); the service checks its format and step names. */
  cassette: z.string().min(1, "must not be empty").max(5 * 1024 * 1024, "must be at most 5 MiB").optional(),
  /** The run's own budget in place of the workflow's (docs/usage-and-budgets.md). */
  budget: startBudgetInput.optional(),
});

export const cancelRunInput = z.object({
  id: z.string().trim().min(1, "must not be empty"),
  reason: z.string().max(2000, "must be at most 2000 characters").optional(),
});

export const runEventsInput = z.object({
  id: z.string().trim().min(1, "must not be empty"),
  /** Set by the SSE client on reconnect: the seq of the last event it received. */
  lastEventId: z.string().regex(/^\d+$/, "must be a ledger sequence number").nullish(),
});

/** Fork prompts and feedback are bounded like specifications. */
const MAX_EDIT_CHARS = 100_000;

export const forkPointInput = z.object({
  id: z.string().trim().min(1, "must not be empty"),
  artifactId: z.string().trim().min(1, "must not be empty"),
});

export const forkRunInput = forkPointInput.extend({
  feedback: z.string().max(MAX_EDIT_CHARS, `must be at most ${MAX_EDIT_CHARS} characters`).optional(),
  prompt: z.string().trim().min(1, "must not be empty when given").max(MAX_EDIT_CHARS, `must be at most ${MAX_EDIT_CHARS} characters`).optional(),
});

export const compareRunsInput = z.object({
  a: z.string().trim().min(1, "must not be empty"),
  b: z.string().trim().min(1, "must not be empty"),
});
