import { SUB_RUN_FAILED_CODE, type JsonObject, type WorkflowResult } from "../engine";

/** What a parent's model reads of a sub-run's artifacts: each cut, and all of them together bounded. */
export const MAX_SUB_RUN_ARTIFACT_CHARS = 64 * 1024;
export const MAX_SUB_RUN_RESULT_CHARS = 256 * 1024;

/**
 * A sub-run's ending as its parent's tool result (the join's response): the final artifacts by
 * guard id on success, or why it did not succeed, as data the parent's policy reads.
 */
export function subRunResult(runId: string, ending: { readonly result: WorkflowResult } | { readonly failure: string }): JsonObject {
  if ("failure" in ending) return { error: true, code: SUB_RUN_FAILED_CODE, message: `Sub-run ${runId} did not succeed: ${ending.failure.slice(0, 2000)}` };
  const { result } = ending;
  if (result.status !== "success") {
    const reason = result.status === "failed" ? `failed at ${result.failedStep}: ${result.reason}` : `escalated at ${result.failedStep}`;
    return { error: true, code: SUB_RUN_FAILED_CODE, message: `Sub-run ${runId} ${reason.slice(0, 2000)}` };
  }
  const artifacts: Record<string, string> = {};
  let budget = MAX_SUB_RUN_RESULT_CHARS;
  const cut: string[] = [];
  for (const [guardId, artifact] of Object.entries(result.artifacts)) {
    const limit = Math.min(MAX_SUB_RUN_ARTIFACT_CHARS, budget);
    if (artifact.content.length > limit) cut.push(guardId);
    artifacts[guardId] = artifact.content.slice(0, limit);
    budget -= artifacts[guardId].length;
  }
  return { status: "succeeded", runId, artifacts, ...(cut.length > 0 ? { truncated: cut } : {}) };
}
