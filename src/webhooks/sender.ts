import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { NotSentError } from './url-safety.js';

// One delivery attempt: a POST to the URL, its host resolved by the given lookup (which checks
// the address it hands the connection; the host name still names the TLS certificate and the Host
// header), with a connect and a total timeout, keeping at most the first kilobyte of the answer.
// Redirects are not followed: a 3xx is a failure.

export const CONNECT_TIMEOUT_MS = 5_000;
export const TOTAL_TIMEOUT_MS = 10_000;
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface AttemptOutcome {
  succeeded: boolean;
  statusCode: number | null;
  /** At most the first 1 KB of the answer (as text). */
  excerpt: string | null;
  /** Why there was no 2xx answer, in words; null on success. */
  error: string | null;
  durationMs: number;
}

export interface Delivery {
  url: URL;
  /** Resolves the host for the connection, and refuses an address it may not reach (checkedLookup). */
  lookup: LookupFunction;
  headers: Record<string, string>;
  body: string;
  /** Aborts the attempt (shutdown). */
  signal?: AbortSignal;
}

export function send(delivery: Delivery): Promise<AttemptOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(total);
      request.destroy();
      resolve({ ...outcome, durationMs: Math.round(performance.now() - started) });
    };
    const fail = (error: string, statusCode: number | null = null, excerpt: string | null = null) =>
      finish({ succeeded: false, statusCode, excerpt, error });

    const client = delivery.url.protocol === 'https:' ? https : http;
    const request = client.request(delivery.url, {
      method: 'POST',
      headers: { ...delivery.headers, 'content-length': String(Buffer.byteLength(delivery.body)) },
      lookup: delivery.lookup,
      agent: false,
      ...(delivery.signal ? { signal: delivery.signal } : {}),
    });
    const total = setTimeout(() => fail(`no answer within ${TOTAL_TIMEOUT_MS / 1000} s`), TOTAL_TIMEOUT_MS);
    request.on('socket', (socket) => {
      const connectTimer = setTimeout(
        () => fail(`could not connect within ${CONNECT_TIMEOUT_MS / 1000} s`),
        CONNECT_TIMEOUT_MS,
      );
      socket.once(delivery.url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
      socket.once('close', () => clearTimeout(connectTimer));
    });
    request.on('error', (error) => fail(describe(error)));
    request.on('response', (response) => {
      const statusCode = response.statusCode ?? null;
      const chunks: Buffer[] = [];
      let kept = 0;
      const done = () => {
        const excerpt = kept > 0 ? Buffer.concat(chunks).toString('utf8') : null;
        const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
        finish({ succeeded: ok, statusCode, excerpt, error: ok ? null : `answered ${statusCode}` });
      };
      response.on('data', (chunk: Buffer) => {
        const room = RESPONSE_EXCERPT_BYTES - kept;
        if (room > 0) {
          chunks.push(chunk.subarray(0, room));
          kept += Math.min(room, chunk.length);
        }
        // The rest is not read: a kilobyte is all that is kept.
        if (kept >= RESPONSE_EXCERPT_BYTES) done();
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(delivery.body);
  });
}

function describe(error: Error): string {
  if (error instanceof NotSentError) return `not sent: ${error.message}`;
  const code = (error as NodeJS.ErrnoException).code;
  if (error.name === 'AbortError') return 'aborted (the service was shutting down)';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET') return 'connection reset';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'host unreachable';
  if (
    code?.startsWith('ERR_TLS') ||
    code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ||
    code === 'CERT_HAS_EXPIRED' ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'
  ) {
    return `TLS failed (${code})`;
  }
  return code ? `request failed (${code})` : 'request failed';
}
