import proxyAddr from "@fastify/proxy-addr";
import ipaddr from "ipaddr.js";

/**
 * Who the client is. Behind a load balancer the peer of every connection is the balancer, so the
 * client's address comes from `X-Forwarded-For`, but only as far as *trusted* proxies wrote it:
 * the address a trusted proxy saw is the client, whatever the client itself put in the header.
 * `TRUST_PROXY` names the proxies (addresses, CIDR ranges, `loopback`, …) or a hop count; there
 * is no "trust everything", which would let any client name its own address.
 */
export type TrustProxy = false | { hops: number } | { addresses: readonly string[] };

/** Trust of the address at position `i` (0: the connection's peer) of the forwarding chain. */
export type TrustFunction = (address: string, i: number) => boolean;

/** `TRUST_PROXY`: `false` (default), a hop count (`1`), or proxies' addresses and ranges. */
export function parseTrustProxy(raw: string, name: string): TrustProxy {
  const value = raw.trim();
  if (/^(0|false|no|off)$/i.test(value)) return false;
  if (/^(true|yes|on)$/i.test(value))
    throw new Error(
      `${name} no longer trusts every peer (any client could then name its own address): give the balancer's addresses (10.0.0.5,10.0.0.6 or 10.0.0.0/24 or loopback) or the number of proxies in front (1)`,
    );
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 16) throw new Error(`${name} as a hop count must be from 0 to 16, got "${raw}"`);
    return hops === 0 ? false : { hops };
  }
  const addresses = value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  try {
    proxyAddr.compile(addresses);
  } catch (error) {
    throw new Error(
      `${name} must be false, a hop count or proxies' addresses and CIDR ranges separated by commas: ${(error as Error).message}`,
    );
  }
  return { addresses };
}

/** The trust function for Fastify's `trustProxy` and for the request-ID header; false trusts no one. */
export function trustFunction(trust: TrustProxy): TrustFunction | false {
  if (trust === false) return false;
  if ("hops" in trust) {
    const hops = trust.hops;
    return (_address, i) => i < hops;
  }
  return proxyAddr.compile([...trust.addresses]);
}

/** The connection's peer is a trusted proxy, so what it forwards (addresses, request ID) is believed. */
export function fromTrustedProxy(peer: string | undefined, trust: TrustFunction | false): boolean {
  return trust !== false && peer !== undefined && trust(peer, 0);
}

/**
 * The unit the abuse limits count: an IPv4 address, or the IPv6 network of `ipv6Prefix` bits
 * that holds the address (one subscriber usually gets a whole /64, so counting single IPv6
 * addresses would give one client 2^64 allowances). IPv4-mapped IPv6 addresses count as IPv4.
 */
export function clientKey(address: string, ipv6Prefix: number): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.includes("%") ? address.slice(0, address.indexOf("%")) : address);
  } catch {
    return address;
  }
  if (parsed.kind() === "ipv4") return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const bytes = v6.toByteArray();
  for (let bit = ipv6Prefix; bit < 128; bit++) bytes[bit >> 3]! &= ~(0x80 >> (bit & 7));
  return `${ipaddr.fromByteArray(bytes).toString()}/${ipv6Prefix}`;
}
