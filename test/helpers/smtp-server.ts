import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

// A real SMTP server on loopback for the tests (the smtp-server package): it speaks the protocol,
// offers STARTTLS with a certificate made for the test run (none is committed), and keeps what
// it received: the envelope, whether the session was upgraded to TLS, and the raw message, which
// parseMessage reads into headers and parts. `refuse` answers a message with an SMTP error.

export interface ReceivedMail {
  from: string;
  to: string[];
  secure: boolean;
  raw: Buffer;
}

export interface TestCertificate {
  dir: string;
  keyFile: string;
  certFile: string;
  key: string;
  cert: string;
  remove(): void;
}

/** A self-signed certificate for 127.0.0.1 and localhost, made with openssl in a temporary folder. */
export function makeTestCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'smtp-cert-'));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return {
    dir,
    keyFile,
    certFile,
    key: readFileSync(keyFile, 'utf8'),
    cert: readFileSync(certFile, 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface TestSmtpServer {
  port: number;
  received: ReceivedMail[];
  /** Answer the next messages with this error (code and text) while it is set. */
  refuse: { code: number; message: string } | null;
  close(): Promise<void>;
}

export async function startSmtpServer(
  certificate: TestCertificate,
  options: { port?: number } = {},
): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const state: TestSmtpServer = { port: 0, received, refuse: null, close: async () => {} };
  const server = new SMTPServer({
    key: certificate.key,
    cert: certificate.cert,
    authOptional: true,
    disabledCommands: ['AUTH'],
    size: 20 * 1024 * 1024,
    logger: false,
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (state.refuse) {
          const error = Object.assign(new Error(state.refuse.message), { responseCode: state.refuse.code });
          callback(error);
          return;
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          secure: session.secure,
          raw: Buffer.concat(chunks),
        });
        callback(null);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  state.port = typeof address === 'object' && address ? address.port : 0;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

export interface MessagePart {
  headers: Record<string, string>;
  body: Buffer;
}

function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function decode(headers: Record<string, string>, body: string): Buffer {
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') {
    const soft = body.replace(/=\r\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < soft.length; i++) {
      if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
        bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(soft.charCodeAt(i));
    }
    return Buffer.from(bytes);
  }
  return Buffer.from(body, 'latin1');
}

/** The message's headers and its leaf parts (a multipart's parts, decoded), enough for what nodemailer writes. */
export function parseMessage(raw: Buffer): { headers: Record<string, string>; parts: MessagePart[] } {
  const text = raw.toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  const headers = parseHeaders(text.slice(0, split));
  const parts: MessagePart[] = [];
  const walk = (partHeaders: Record<string, string>, body: string) => {
    const boundary = /boundary="?([^";]+)"?/i.exec(partHeaders['content-type'] ?? '')?.[1];
    if (!boundary || !/^multipart\//i.test(partHeaders['content-type'] ?? '')) {
      parts.push({ headers: partHeaders, body: decode(partHeaders, body) });
      return;
    }
    const pieces = body.split(`--${boundary}`).slice(1);
    for (const piece of pieces) {
      if (piece.startsWith('--')) break;
      const inner = piece.replace(/^\r\n/, '').replace(/\r\n$/, '');
      const end = inner.indexOf('\r\n\r\n');
      walk(parseHeaders(inner.slice(0, end)), inner.slice(end + 4));
    }
  };
  walk(headers, text.slice(split + 4));
  return { headers, parts };
}

/** A part's filename from its Content-Disposition or Content-Type. */
export function filenameOf(part: MessagePart): string | null {
  const match =
    /filename="?([^";]+)"?/i.exec(part.headers['content-disposition'] ?? '') ??
    /name="?([^";]+)"?/i.exec(part.headers['content-type'] ?? '');
  return match ? match[1]! : null;
}

/** The SMTP sink in a process of its own (smtp-sink.mjs): for tests that block their own event loop. */
export async function startSmtpSinkProcess(
  certificate: TestCertificate,
): Promise<{ port: number; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [join(import.meta.dirname, 'smtp-sink.mjs')], {
    env: { ...process.env, SMTP_SINK_KEY: certificate.keyFile, SMTP_SINK_CERT: certificate.certFile },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the SMTP sink exited (${code})`)));
    child.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
  });
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
