import { isServiceError } from "@/server/services/errors";
import { isAbortError, isExportLimitError } from "@/server/services/provenance/export-limits";

/** The answer to a provenance export that did not produce a document, by what stopped it. */
export function exportFailure(error: unknown, what: string, runId: string): Response {
  if (isServiceError(error) && error.code === "NOT_FOUND") return Response.json({ message: error.message }, { status: 404 });
  if (isExportLimitError(error)) return Response.json({ message: error.message }, { status: error.limit === "time" ? 503 : 413 });
  // The client left: nobody reads this answer, and there is nothing to log.
  if (isAbortError(error)) return new Response(null, { status: 499 });
  // By name (see the style guide): a server without git says so instead of failing blindly.
  if (error instanceof Error && error.name === "GitUnavailableError") return Response.json({ message: error.message }, { status: 501 });
  console.error(`${what} of run ${runId} failed:`, error);
  return Response.json({ message: "Internal server error" }, { status: 500 });
}
