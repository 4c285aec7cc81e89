import { currentCredentials } from "@/server/auth/app-auth";
import { handleTRPCRequest } from "@/server/api/http-handler";
import { getDb } from "@/server/persistence/db";

// Prisma with better-sqlite3/pg needs Node.js APIs.
export const runtime = "nodejs";

function handler(request: Request): Promise<Response> {
  return handleTRPCRequest(request, getDb, (req) => currentCredentials(req.headers));
}

export { handler as GET, handler as POST };
