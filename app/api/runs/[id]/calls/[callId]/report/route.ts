import { currentCredentials } from "@/server/auth/app-auth";
import { handleToolReport } from "@/server/api/tool-report-http";
import { getDb } from "@/server/persistence/db";

export const runtime = "nodejs";

/** POST /api/runs/<runId>/calls/<callId>/report: an external tool's result (server/api/tool-report-http.ts). POST only. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string; callId: string }> }): Promise<Response> {
  const { id, callId } = await params;
  return handleToolReport(request, { runId: id, callId }, getDb(), currentCredentials);
}
