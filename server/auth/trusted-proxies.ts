import { BlockList, isIP } from "node:net";

/**
 * The proxies an administrator trusts to report the client's address (DUALSTATE_TRUSTED_PROXIES):
 * single addresses or CIDR ranges, IPv4 or IPv6. Parsed by server/env.ts; matched here.
 */
export interface ProxyRange {
  readonly address: string;
  readonly prefix: number;
  readonly family: "ipv4" | "ipv6";
}

/** An entry of DUALSTATE_TRUSTED_PROXIES as a range, or a message saying what is wrong with it. */
export function parseProxyRange(entry: string): ProxyRange | string {
  const [address = "", prefixText, ...extra] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || extra.length > 0) return "is not an IP address or CIDR range (such as 10.0.0.0/8 or ::1)";
  const family = version === 4 ? "ipv4" : "ipv6";
  const bits = version === 4 ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: bits, family };
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= bits)) return `has a prefix length that is not between 0 and ${bits}`;
  return { address, prefix, family };
}

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) is 10.0.0.1. */
export function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? mapped[1]! : address.toLowerCase();
}

export class TrustedProxies {
  readonly #list = new BlockList();
  readonly #empty: boolean;

  constructor(ranges: readonly ProxyRange[]) {
    for (const range of ranges) this.#list.addSubnet(range.address, range.prefix, range.family);
    this.#empty = ranges.length === 0;
  }

  trusts(address: string): boolean {
    if (this.#empty) return false;
    const normalized = normalizeAddress(address);
    const version = isIP(normalized);
    return version !== 0 && this.#list.check(normalized, version === 4 ? "ipv4" : "ipv6");
  }
}
