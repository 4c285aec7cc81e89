import { currentActor } from "@/server/auth/app-auth";
import { getDb } from "@/server/persistence/db";
import { isServiceError } from "@/server/services/errors";
import { exportProvJson } from "@/server/services/provenance/get-provenance";

export const runtime = "nodejs";

/** GET /api/runs/<id>/provenance: the run's provenance as a W3C PROV-JSON download (viewers and up). */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  if (!(await currentActor(request.headers))) return Response.json({ message: "Sign in first" }, { status: 401 });
  const { id } = await params;
  try {
    const document = await exportProvJson(getDb(), id);
    return new Response(JSON.stringify(document, null, 2), {
      headers: { "content-type": "application/json; charset=utf-8", "content-disposition": `attachment; filename="run-${id}.prov.json"` },
    });
  } catch (error) {
    if (isServiceError(error) && error.code === "NOT_FOUND") return Response.json({ message: error.message }, { status: 404 });
    console.error(`provenance export of run ${id} failed:`, error);
    return Response.json({ message: "Internal server error" }, { status: 500 });
  }
}
