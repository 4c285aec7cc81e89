import { NextResponse, type NextRequest } from "next/server";
import { newNonce, pageContentSecurityPolicy } from "@/server/api/security-headers";

/**
 * Runs before every page (not the APIs or Next.js's static files):
 * 1. gives the page its Content-Security-Policy with a fresh nonce; Next.js reads the nonce from
 *    the request's copy of the header and puts it on its scripts (pages render per request:
 *    app/layout.tsx);
 * 2. an optimistic check only: a visitor without a session cookie goes to the sign-in page before
 *    any page renders (except the pages an emailed one-click decision link opens: the link is
 *    their credential). The real check (a valid, current session) is made by the dashboard layout
 *    and by every tRPC procedure.
 * The other security headers are set for every path in next.config.ts.
 */
const SESSION_COOKIES = ["better-auth.session_token", "__Secure-better-auth.session_token"];
// /metrics: Prometheus's scrape (rewritten to app/api/metrics, which answers 404 unless enabled and checks its own token).
// /decide/TOKEN and /decided: an emailed one-click decision link's pages (the signed link is the credential).
const OPEN_PATHS = /^\/(?:sign-in(?:\/|$)|metrics$|decide\/[^/]+$|decided$|icon\.svg$|favicon\.ico$|screenshot\.png$|[^/]+\.png$)/;

export default function proxy(request: NextRequest) {
  const policy = pageContentSecurityPolicy(newNonce(), process.env.NODE_ENV === "development");
  const signedOut = !SESSION_COOKIES.some((name) => request.cookies.has(name));
  if (signedOut && !OPEN_PATHS.test(request.nextUrl.pathname)) {
    const redirect = NextResponse.redirect(new URL("/sign-in", request.url));
    redirect.headers.set("content-security-policy", policy);
    return redirect;
  }
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  // Everything but the APIs (they answer 401 themselves and get their own policy) and Next.js's static files.
  matcher: ["/((?!api/|_next/).*)"],
};
