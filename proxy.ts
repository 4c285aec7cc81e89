import { NextResponse, type NextRequest } from "next/server";

/**
 * An optimistic check only: a visitor without a session cookie goes to the sign-in page before
 * any page renders. The real check (a valid, current session) is made by the dashboard layout and
 * by every tRPC procedure.
 */
const SESSION_COOKIES = ["better-auth.session_token", "__Secure-better-auth.session_token"];

export default function proxy(request: NextRequest) {
  if (SESSION_COOKIES.some((name) => request.cookies.has(name))) return NextResponse.next();
  return NextResponse.redirect(new URL("/sign-in", request.url));
}

export const config = {
  // Everything but the sign-in page, the APIs (they answer 401 themselves) and static files.
  matcher: ["/((?!sign-in|api/|_next/|icon\\.svg|favicon\\.ico|screenshot\\.png).*)"],
};
