import { currentActor } from "@/server/auth/app-auth";
import { getDb } from "@/server/persistence/db";
import { exportProvJson } from "@/server/services/provenance/get-provenance";
import { exportFailure } from "./export-failure";

export const runtime = "nodejs";

/**
 * GET /api/runs/<id>/provenance: the run's provenance as a W3C PROV-JSON download (viewers and up),
 * within the export limits; it stops when the client goes away.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  if (!(await currentActor(request.headers))) return Response.json({ message: "Sign in first" }, { status: 401 });
  const { id } = await params;
  try {
    const document = await exportProvJson(getDb(), id, { signal: request.signal });
    return new Response(JSON.stringify(document, null, 2), {
      headers: { "content-type": "application/json; charset=utf-8", "content-disposition": `attachment; filename="run-${id}.prov.json"` },
    });
  } catch (error) {
    return exportFailure(error, "provenance export", id);
  }
}
