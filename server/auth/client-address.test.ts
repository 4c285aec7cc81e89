import { describe, expect, it } from "vitest";
import { clientAddress, UNKNOWN_ADDRESS } from "./client-address";
import { parseProxyRange, TrustedProxies, type ProxyRange } from "./trusted-proxies";

const proxies = (...entries: string[]) => new TrustedProxies(entries.map((entry) => parseProxyRange(entry) as ProxyRange));
const headers = (init: Record<string, string>) => new Headers(init);

describe("the client address a sign-in is limited by", () => {
  it("is the connection's address when no proxy is trusted, whatever the proxy headers say", () => {
    const forged = headers({ "x-forwarded-for": "1.2.3.4", "x-real-ip": "5.6.7.8", forwarded: "for=9.9.9.9" });
    expect(clientAddress("203.0.113.7", forged, proxies())).toBe("203.0.113.7");
    expect(clientAddress("::ffff:203.0.113.7", forged, proxies())).toBe("203.0.113.7");
  });

  it("ignores proxy headers from a peer that is not one of the trusted proxies", () => {
    expect(clientAddress("203.0.113.7", headers({ "x-forwarded-for": "1.2.3.4" }), proxies("10.0.0.0/8"))).toBe("203.0.113.7");
  });

  it("peels only the hops trusted proxies appended, right to left: a client's own entries stay to the left", () => {
    // The client forged "6.6.6.6"; the edge proxy (10.0.0.2) appended the real client, and an inner proxy appended 10.0.0.2.
    const chain = headers({ "x-forwarded-for": "6.6.6.6, 198.51.100.4, 10.0.0.2" });
    expect(clientAddress("10.0.0.3", chain, proxies("10.0.0.0/8"))).toBe("198.51.100.4");
  });

  it("uses the leftmost hop when every hop is a trusted proxy, and a non-address hop as written (bounded)", () => {
    expect(clientAddress("10.0.0.3", headers({ "x-forwarded-for": "10.0.0.9, 10.0.0.2" }), proxies("10.0.0.0/8"))).toBe("10.0.0.9");
    expect(clientAddress("10.0.0.3", headers({ "x-forwarded-for": `${"x".repeat(500)}` }), proxies("10.0.0.0/8"))).toBe("x".repeat(64));
  });

  it("reads Forwarded (RFC 7239) first, with quotes, brackets and ports, then X-Real-IP", () => {
    const trusted = proxies("127.0.0.1", "::1");
    expect(clientAddress("127.0.0.1", headers({ forwarded: 'for=192.0.2.60;proto=http, for="[2001:db8::1]:4711"', "x-forwarded-for": "7.7.7.7" }), trusted)).toBe("2001:db8::1");
    expect(clientAddress("::1", headers({ forwarded: "for=192.0.2.60:8080" }), trusted)).toBe("192.0.2.60");
    expect(clientAddress("127.0.0.1", headers({ "x-real-ip": "192.0.2.61" }), trusted)).toBe("192.0.2.61");
    expect(clientAddress("127.0.0.1", headers({}), trusted)).toBe("127.0.0.1");
  });

  it("bounds the work on a huge header, keeping the right end the trusted proxies wrote", () => {
    const padding = Array.from({ length: 100_000 }, () => "6.6.6.6").join(",");
    expect(clientAddress("10.0.0.1", headers({ "x-forwarded-for": `${padding}, 198.51.100.9, 10.0.0.2` }), proxies("10.0.0.0/8"))).toBe("198.51.100.9");
    const trustedOnly = Array.from({ length: 100_000 }, () => "10.0.0.1").join(",");
    expect(clientAddress("10.0.0.1", headers({ "x-forwarded-for": trustedOnly }), proxies("10.0.0.0/8"))).toMatch(/^10\.0\.0\.1$/);
  });

  it("is unknown when the server cannot see the connection", () => {
    expect(clientAddress(null, headers({ "x-forwarded-for": "1.2.3.4" }), proxies("0.0.0.0/0"))).toBe(UNKNOWN_ADDRESS);
  });
});

describe("DUALSTATE_TRUSTED_PROXIES entries", () => {
  it("accepts addresses and CIDR ranges of both families", () => {
    expect(parseProxyRange("10.0.0.0/8")).toEqual({ address: "10.0.0.0", prefix: 8, family: "ipv4" });
    expect(parseProxyRange("::1")).toEqual({ address: "::1", prefix: 128, family: "ipv6" });
    expect(proxies("fd00::/8").trusts("fd12::5")).toBe(true);
  });

  it.each(["proxy.example.com", "10.0.0.0/33", "10.0.0.0/8/1", "::1/129", "10.0.0.0/-1", "10.0.0.0/abc"])("refuses %s with a message", (entry) => {
    expect(typeof parseProxyRange(entry)).toBe("string");
  });
});
