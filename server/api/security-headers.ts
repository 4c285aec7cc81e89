/**
 * The security headers of every response, defined once: next.config.ts sends the static ones on
 * every path, proxy.ts sends each page its Content-Security-Policy with a fresh nonce.
 *
 * Scripts: only this origin's, and only those Next.js marks with the request's nonce (or that they
 * load: 'strict-dynamic'); no inline script an attacker could inject runs, and no eval outside
 * development (React uses eval there for its error overlay). Styles allow inline attributes:
 * React Flow positions every node with a style attribute, and CSS cannot run script.
 */
export const STATIC_SECURITY_HEADERS: readonly { key: string; value: string }[] = [
  // frame-ancestors 'none' in the CSP says the same to browsers that read it; this is for older ones.
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  // Run and escalation ids in URLs stay on this site.
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
];

/** For responses that are data, not pages (the APIs, static files): nothing may load, nothing may frame them. */
export const DATA_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** A page's policy; `nonce` is fresh for every request (see proxy.ts). */
export function pageContentSecurityPolicy(nonce: string, development: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    // tRPC calls and its server-sent event streams; in development also the hot-reload socket.
    `connect-src 'self'${development ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** A nonce: 128 random bits, base64. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}
