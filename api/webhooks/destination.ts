import { lookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may be delivered (docs/console.md "Webhook destinations"). The
 * deliverer POSTs from inside the deployment, so a URL naming this machine, its network or a cloud
 * metadata address would make it a proxy to them (SSRF). A URL's name is resolved, every address
 * it resolves to is checked, and the connection then goes to the address that was checked
 * (`pinnedLookup`): a name that answers a public address to the check and a private one to the
 * connection (DNS rebinding) never reaches the private one.
 */

/** a name's addresses, as the system resolver (or a test's) answers */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export interface DestinationPolicy {
  /** WEBHOOKS_ALLOW_LOCAL: loopback and private networks, any port, and http (development receivers) */
  allowLocal: boolean;
  /** default the system's resolver */
  resolve?: Resolver;
}

/** ranges a development deployment (allowLocal) may deliver to: this machine and private networks */
const LOCAL_RANGES: ReadonlySet<string> = new Set(['loopback', 'private', 'uniqueLocal']);

/**
 * Why an address is refused, or undefined: only public unicast addresses are accepted (and local
 * ones with allowLocal). Everything ipaddr.js names a special range is refused, among them
 * link-local (169.254.169.254), CGNAT 100.64/10, benchmarking 198.18/15, multicast, reserved,
 * unspecified, and the IPv6 forms that carry an IPv4 address (IPv4-mapped, NAT64 64:ff9b::/96,
 * 6to4 2002::/16, Teredo), which would otherwise reach a private IPv4 address through a gateway.
 */
export function addressProblem(address: string, allowLocal: boolean): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = ipaddr.parse(address).range();
  if (range === 'unicast' || (allowLocal && LOCAL_RANGES.has(range))) return undefined;
  const hint = LOCAL_RANGES.has(range) ? ' (a development deployment allows loopback and private ones with WEBHOOKS_ALLOW_LOCAL)' : '';
  return `${address} is a ${range} address: not accepted, only public addresses are${hint}`;
}

const isLocal = (address: string) => ipaddr.isValid(address) && LOCAL_RANGES.has(ipaddr.parse(address).range());

/**
 * Why a URL is refused before any resolution, or undefined: its scheme, its credentials, and, when
 * its host is an address (the WHATWG parser has turned decimal, octal and hex IPv4 forms into
 * dotted quads) or a `localhost` name, that address and the port. Other names are checked once
 * resolved (`resolveDestination`).
 */
export function webhookUrlProblem(raw: string, allowLocal: boolean): string | undefined {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'not a valid absolute URL';
  }
  if (u.username || u.password) return 'credentials in the URL are not accepted';
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return allowLocal ? 'must be an http or https URL' : 'must be an https URL';
  const literal = literalAddress(hostOf(u));
  if (literal) return addressesProblem(u, [literal], allowLocal);
  // a name over http: only to a local receiver, known once resolved
  return u.protocol === 'http:' && !allowLocal ? 'must be an https URL' : undefined;
}

/** a URL's host without IPv6 brackets */
const hostOf = (u: URL): string => u.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');

/** the address a host names without resolving: an IP literal, or loopback for `localhost` names */
function literalAddress(host: string): string | undefined {
  if (isIP(host)) return host;
  return host === 'localhost' || host.endsWith('.localhost') ? '127.0.0.1' : undefined;
}

/**
 * Why a URL's resolved addresses are refused, or undefined: every one must be accepted (one
 * private address among public ones would be the one a rebinding name serves); http and any port
 * only to a local receiver with allowLocal (development), else https on port 443 (or 80 with
 * allowLocal).
 */
function addressesProblem(u: URL, addresses: string[], allowLocal: boolean): string | undefined {
  for (const a of addresses) {
    const problem = addressProblem(a, allowLocal);
    if (problem) return isIP(hostOf(u)) ? problem : `${hostOf(u)} resolves to ${problem}`;
  }
  const local = allowLocal && addresses.every(isLocal);
  if (u.protocol === 'http:' && !local) return 'must be an https URL';
  const port = portOf(u);
  if (port === 443 || local || (allowLocal && port === 80)) return undefined;
  return `port ${port} is not accepted: webhooks go to port 443`;
}

/** the URL's port, explicit or its scheme's */
const portOf = (u: URL): number => (u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80);

export type Destination = { ok: true; address: string; family: 4 | 6 } | { ok: false; refused: boolean; problem: string };

/**
 * Resolves a webhook URL and checks where it would connect (`webhookUrlProblem`, then every
 * address the name resolves to): the address to connect to, or why not. `refused` is false when
 * the name did not resolve: that may pass, a refusal does not.
 */
export async function resolveDestination(url: string, policy: DestinationPolicy): Promise<Destination> {
  const shape = webhookUrlProblem(url, policy.allowLocal);
  if (shape) return { ok: false, refused: true, problem: shape };
  const u = new URL(url);
  const host = hostOf(u);
  const literal = literalAddress(host);
  let addresses: string[];
  try {
    addresses = literal ? [literal] : (await (policy.resolve ?? systemResolver)(host)).map((a) => a.address);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return { ok: false, refused: false, problem: `${host} does not resolve` };
  const problem = addressesProblem(u, addresses, policy.allowLocal);
  if (problem) return { ok: false, refused: true, problem };
  const address = addresses[0] as string;
  return { ok: true, address, family: isIP(address) === 6 ? 6 : 4 };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** a `lookup` for node's http(s).request that answers the checked address whatever the name, so the connection goes where the check looked */
export function pinnedLookup(address: string, family: 4 | 6) {
  return (_hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}
