import { currentActor } from "@/server/auth/app-auth";
import { getDb } from "@/server/persistence/db";
import { isServiceError } from "@/server/services/errors";
import { exportProvenanceBundle } from "@/server/services/provenance/export-git";

export const runtime = "nodejs";

/**
 * GET /api/runs/<id>/provenance/git: the run's provenance as a git bundle download (one commit per
 * attempt, verdict in the message); `git clone run-<id>.bundle` turns it into a repository.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  if (!(await currentActor(request.headers))) return Response.json({ message: "Sign in first" }, { status: 401 });
  const { id } = await params;
  try {
    const bundle = await exportProvenanceBundle(getDb(), id);
    return new Response(new Uint8Array(bundle), {
      headers: { "content-type": "application/x-git-bundle", "content-disposition": `attachment; filename="run-${id}.bundle"` },
    });
  } catch (error) {
    if (isServiceError(error) && error.code === "NOT_FOUND") return Response.json({ message: error.message }, { status: 404 });
    // By name (see the style guide): a server without git says so instead of failing blindly.
    if (error instanceof Error && error.name === "GitUnavailableError") return Response.json({ message: error.message }, { status: 501 });
    console.error(`git export of run ${id}'s provenance failed:`, error);
    return Response.json({ message: "Internal server error" }, { status: 500 });
  }
}
