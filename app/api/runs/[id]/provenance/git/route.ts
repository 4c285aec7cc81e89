import { currentActor } from "@/server/auth/app-auth";
import { getDb } from "@/server/persistence/db";
import { exportProvenanceBundle } from "@/server/services/provenance/export-git";
import { exportFailure } from "../export-failure";

export const runtime = "nodejs";

/**
 * GET /api/runs/<id>/provenance/git: the run's provenance as a git bundle download (one commit per
 * attempt, verdict in the message); `git clone run-<id>.bundle` turns it into a repository. Bounded
 * by the export limits; when the client goes away the git process is killed and the work stops.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  if (!(await currentActor(request.headers))) return Response.json({ message: "Sign in first" }, { status: 401 });
  const { id } = await params;
  try {
    const bundle = await exportProvenanceBundle(getDb(), id, { signal: request.signal });
    return new Response(new Uint8Array(bundle), {
      headers: { "content-type": "application/x-git-bundle", "content-disposition": `attachment; filename="run-${id}.bundle"` },
    });
  } catch (error) {
    return exportFailure(error, "git export", id);
  }
}
