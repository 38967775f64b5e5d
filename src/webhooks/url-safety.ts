import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

// Webhook URLs are chosen by customers and fetched by us: without care they reach our own
// network (SSRF). A URL must be https and every address its host resolves to must be public
// unicast; the delivery then connects to the address that was checked, never resolving again,
// so a DNS answer that changes in between (rebinding) cannot redirect it.

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (injectable, so tests can play DNS). */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = async (hostname) => lookup(hostname, { all: true, verbatim: true });

export type UrlCheck =
  | { ok: true; url: URL; address: ResolvedAddress }
  | { ok: false; code: 'invalid_url' | 'not_https' | 'credentials_in_url' | 'unresolvable' | 'not_public'; message: string };

export const MAX_URL_LENGTH = 2048;

/** Whether an address is public unicast (not loopback, private, link-local, metadata, CGNAT, reserved…). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** Checks a webhook URL and picks the address to connect to. */
export async function checkEndpointUrl(raw: string, options: { allowPrivate: boolean; resolve: Resolve }): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, code: 'invalid_url', message: 'Must be an absolute URL, e.g. https://example.com/webhooks.' };
  }
  if (raw.length > MAX_URL_LENGTH) return { ok: false, code: 'invalid_url', message: `Must be at most ${MAX_URL_LENGTH} characters.` };
  const schemes = options.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) return { ok: false, code: 'not_https', message: 'Must be an https URL.' };
  if (url.username !== '' || url.password !== '') {
    return { ok: false, code: 'credentials_in_url', message: 'Must not carry a user name or password; put a token in the path or query instead.' };
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: ResolvedAddress[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await options.resolve(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) return { ok: false, code: 'unresolvable', message: `The host ${host} does not resolve to an address.` };
  }
  if (!options.allowPrivate) {
    const internal = addresses.find((a) => !isPublicAddress(a.address));
    if (internal) {
      return {
        ok: false,
        code: 'not_public',
        message: `The host resolves to ${internal.address}, which is not a public address (loopback, private, link-local and metadata addresses are refused).`,
      };
    }
  }
  return { ok: true, url, address: addresses[0]! };
}
