import { isIP } from "node:net";
import { normalizeAddress, type TrustedProxies } from "./trusted-proxies";

/** The key used when the server cannot see the connection (Next.js started without `dualstate start`). */
export const UNKNOWN_ADDRESS = "unknown";

// Headers are client-supplied text: read a bounded part and a bounded number of hops, from the
// right end, where the trusted proxies append (whatever a client wrote is to the left).
const MAX_HEADER_CHARS = 4096;
const MAX_HOPS = 32;

const bounded = (value: string | null) => (value ?? "").slice(-MAX_HEADER_CHARS);

/** `for=` values of a Forwarded header (RFC 7239), oldest hop first: quotes, brackets and ports removed. */
function forwardedHops(value: string): string[] {
  const hops: string[] = [];
  for (const element of value.split(",").slice(-MAX_HOPS)) {
    const pair = element.split(";").map((part) => part.trim()).find((part) => part.toLowerCase().startsWith("for="));
    if (!pair) continue;
    let node = pair.slice(4).trim().replace(/^"|"$/g, "");
    const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(node);
    if (bracketed) node = bracketed[1]!;
    else if (/^[\d.]+:\d+$/.test(node)) node = node.slice(0, node.lastIndexOf(":"));
    hops.push(node);
  }
  return hops;
}

/** The addresses proxies reported, oldest first: Forwarded, else X-Forwarded-For, else X-Real-IP. */
function reportedHops(headers: Headers): string[] {
  const forwarded = bounded(headers.get("forwarded"));
  if (forwarded) return forwardedHops(forwarded);
  const forwardedFor = bounded(headers.get("x-forwarded-for"));
  if (forwardedFor) return forwardedFor.split(",").slice(-MAX_HOPS).map((hop) => hop.trim()).filter(Boolean);
  const realIp = bounded(headers.get("x-real-ip")).trim();
  return realIp ? [realIp] : [];
}

/**
 * The address a sign-in attempt comes from: the TCP peer, unless the peer is a trusted proxy; then
 * the hops the proxies appended are peeled off right to left while they are trusted proxies too, and
 * the first address no trusted proxy vouches for is the client. Without trusted proxies every proxy
 * header is ignored: a client can write anything into them.
 */
export function clientAddress(peer: string | null, headers: Headers, trusted: TrustedProxies): string {
  if (peer === null || isIP(normalizeAddress(peer)) === 0) return UNKNOWN_ADDRESS;
  let client = normalizeAddress(peer);
  if (!trusted.trusts(client)) return client;
  const hops = reportedHops(headers);
  while (trusted.trusts(client) && hops.length > 0) {
    const next = hops.pop()!;
    // A hop that is not an address ends the chain: it is keyed as written (bounded), never trusted.
    client = isIP(normalizeAddress(next)) === 0 ? next.slice(0, 64) : normalizeAddress(next);
  }
  return client;
}
