import { lookup } from 'node:dns/promises';
import { BlockList, isIPv6, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

// Webhook URLs are chosen by customers and fetched by us: without care they reach our own
// network (SSRF). A URL must be https and every address its host resolves to must be public
// unicast. A delivery resolves the host once, in the lookup of its own connection, checks what
// came back there and connects to that checked address: a DNS answer that changes between the
// endpoint's creation and a delivery (rebinding) is caught where it would be used.

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (injectable, so tests can play DNS). */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = async (hostname) => lookup(hostname, { all: true, verbatim: true });

export type UrlProblemCode = 'invalid_url' | 'not_https' | 'credentials_in_url' | 'unresolvable' | 'not_public';

export type UrlCheck =
  { ok: true; url: URL; address: ResolvedAddress } | { ok: false; code: UrlProblemCode; message: string };

export const MAX_URL_LENGTH = 2048;

/**
 * ::/96, the deprecated IPv4-compatible IPv6 addresses (::a.b.c.d, e.g. ::127.0.0.1 = ::7f00:1):
 * no public host has one, and some stacks route them to the IPv4 address they carry. Checked with
 * Node's own parser: ipaddr.js reads the dotted form ::a.b.c.d as the IPv4-mapped ::ffff:a.b.c.d.
 */
const IPV4_COMPATIBLE = new BlockList();
IPV4_COMPATIBLE.addSubnet('::', 96, 'ipv6');

/** Whether an address is public unicast (not loopback, private, link-local, metadata, CGNAT, reserved, IPv4-compatible…). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  if (isIPv6(address) && IPV4_COMPATIBLE.check(address, 'ipv6')) return false;
  return ipaddr.process(address).range() === 'unicast';
}

function notPublicMessage(address: string): string {
  return `The host resolves to ${address}, which is not a public address (loopback, private, link-local and metadata addresses are refused).`;
}

/** A connection not made: its host resolved to an address that is not public, or to none. */
export class NotSentError extends Error {
  override name = 'NotSentError';
  readonly code = 'ERR_WEBHOOK_NOT_SENT';
}

/** The host of a URL as an address or a name (without an IPv6 literal's brackets). */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** What can be said of a URL without resolving its host: its form, and a literal address's range. */
function checkUrlForm(
  raw: string,
  allowPrivate: boolean,
): { ok: true; url: URL } | { ok: false; code: UrlProblemCode; message: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, code: 'invalid_url', message: 'Must be an absolute URL, e.g. https://example.com/webhooks.' };
  }
  if (raw.length > MAX_URL_LENGTH)
    return { ok: false, code: 'invalid_url', message: `Must be at most ${MAX_URL_LENGTH} characters.` };
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) return { ok: false, code: 'not_https', message: 'Must be an https URL.' };
  if (url.username !== '' || url.password !== '') {
    return {
      ok: false,
      code: 'credentials_in_url',
      message: 'Must not carry a user name or password; put a token in the path or query instead.',
    };
  }
  const host = hostOf(url);
  if (!allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host))
    return { ok: false, code: 'not_public', message: notPublicMessage(host) };
  return { ok: true, url };
}

/** Checks a webhook URL and picks the address to connect to (creating or changing an endpoint). */
export async function checkEndpointUrl(
  raw: string,
  options: { allowPrivate: boolean; resolve: Resolve },
): Promise<UrlCheck> {
  const form = checkUrlForm(raw, options.allowPrivate);
  if (!form.ok) return form;
  const host = hostOf(form.url);
  if (ipaddr.isValid(host))
    return { ok: true, url: form.url, address: { address: host, family: host.includes(':') ? 6 : 4 } };
  let addresses: ResolvedAddress[];
  try {
    addresses = await options.resolve(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0)
    return { ok: false, code: 'unresolvable', message: `The host ${host} does not resolve to an address.` };
  const internal = options.allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
  if (internal) return { ok: false, code: 'not_public', message: notPublicMessage(internal.address) };
  return { ok: true, url: form.url, address: addresses[0]! };
}

/**
 * A delivery's URL before it is sent: its form only. The host is resolved and checked by the
 * connection's own lookup (checkedLookup); a literal address, which a connection does not look
 * up, is checked here.
 */
export function checkDeliveryUrl(raw: string, allowPrivate: boolean) {
  return checkUrlForm(raw, allowPrivate);
}

/**
 * The lookup of a delivery's connection: it resolves the host, refuses it unless every address
 * is public (NotSentError), and hands the connection the first one, so the address
 * connected to is the address checked, at the moment of connecting.
 */
export function checkedLookup(options: { allowPrivate: boolean; resolve: Resolve }): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    const answer = callback as unknown as (
      error: Error | null,
      address?: string | ResolvedAddress[],
      family?: number,
    ) => void;
    const unresolvable = () => answer(new NotSentError(`The host ${hostname} does not resolve to an address.`));
    options.resolve(hostname).then((addresses) => {
      if (addresses.length === 0) return unresolvable();
      const internal = options.allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
      if (internal) return answer(new NotSentError(notPublicMessage(internal.address)));
      const first = addresses[0]!;
      if ((lookupOptions as { all?: boolean }).all) answer(null, [first]);
      else answer(null, first.address, first.family);
    }, unresolvable);
  };
}
