import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import nextConfig from "@/next.config";
import proxy, { config } from "@/proxy";
import { pageContentSecurityPolicy } from "./security-headers";

const directives = (policy: string) => Object.fromEntries(policy.split(/;\s*/).map((directive) => [directive.split(" ")[0], directive.split(" ").slice(1)]));

describe("security headers", () => {
  it("a page's policy: scripts only by nonce (strict-dynamic), no eval in production, no framing, no plugins", () => {
    const policy = directives(pageContentSecurityPolicy("abc", false));
    expect(policy["script-src"]).toEqual(["'self'", "'nonce-abc'", "'strict-dynamic'"]);
    expect(policy["frame-ancestors"]).toEqual(["'none'"]);
    expect(policy["object-src"]).toEqual(["'none'"]);
    expect(policy["base-uri"]).toEqual(["'self'"]);
    expect(pageContentSecurityPolicy("abc", false)).not.toContain("unsafe-eval");
    expect(pageContentSecurityPolicy("abc", false)).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(directives(pageContentSecurityPolicy("abc", true))["script-src"]).toContain("'unsafe-eval'");
  });

  it("proxy.ts gives every page a fresh nonce, in the response and in the request Next.js renders from", () => {
    const signedIn = () => new NextRequest("http://localhost:3000/runs/r1", { headers: { cookie: "better-auth.session_token=x" } });
    const first = proxy(signedIn());
    const second = proxy(signedIn());
    const policy = first.headers.get("content-security-policy")!;
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}' 'strict-dynamic'/);
    expect(second.headers.get("content-security-policy")).not.toBe(policy);
    // NextResponse.next({ request: { headers } }) hands the overridden request headers on this way.
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
  });

  it("a signed-out visitor is sent to sign-in, with the policy; the sign-in page itself and images are not redirected", () => {
    const redirected = proxy(new NextRequest("http://localhost:3000/runs"));
    expect(redirected.headers.get("location")).toBe("http://localhost:3000/sign-in");
    expect(redirected.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    for (const open of ["/sign-in", "/icon.svg", "/screenshot.png"]) {
      const response = proxy(new NextRequest(`http://localhost:3000${open}`));
      expect(response.headers.get("location")).toBeNull();
      expect(response.headers.get("content-security-policy")).toContain("'strict-dynamic'");
    }
  });

  it("proxy.ts runs on pages, not on the APIs or Next.js's own files (they get the data policy from next.config.ts)", () => {
    const matcher = new RegExp(`^${config.matcher[0]}$`);
    expect(matcher.test("/runs/abc")).toBe(true);
    expect(matcher.test("/")).toBe(true);
    expect(matcher.test("/api/trpc/run.get")).toBe(false);
    expect(matcher.test("/_next/static/chunks/a.js")).toBe(false);
  });

  it("next.config.ts sends X-Frame-Options DENY, nosniff and Referrer-Policy on every path, and a CSP on the APIs and static files", async () => {
    const rules = await nextConfig.headers!();
    const all = rules.find((rule) => rule.source === "/:path*")!;
    expect(Object.fromEntries(all.headers.map(({ key, value }) => [key, value]))).toMatchObject({ "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin" });
    for (const source of ["/api/:path*", "/_next/:path*"]) {
      expect(rules.find((rule) => rule.source === source)?.headers[0]).toEqual({ key: "Content-Security-Policy", value: expect.stringContaining("frame-ancestors 'none'") });
    }
  });
});
