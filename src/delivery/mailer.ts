import { readFileSync } from 'node:fs';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { isLoopbackHost, type EmailConfig } from '../config.js';

// The SMTP side: one nodemailer transport per process over the operator's relay (SMTP_URL). TLS
// is required unless the relay is on this machine: smtps:// from the first byte, smtp:// through
// STARTTLS (a relay that does not offer it is refused, never spoken to in clear). SPF and the
// relay's own DKIM are the operator's; DKIM signing here is optional (EMAIL_DKIM_*).

/** How long one attempt may take at most: the worker's lease outlives it. */
export const SMTP_TIMEOUTS_MS = { connection: 10_000, greeting: 10_000, socket: 30_000 } as const;
export const ATTEMPT_MAX_MS = SMTP_TIMEOUTS_MS.connection + SMTP_TIMEOUTS_MS.greeting + SMTP_TIMEOUTS_MS.socket * 2;

export interface OutgoingMessage {
  from: string;
  replyTo: string | null;
  to: string[];
  cc: string[];
  subject: string;
  text: string;
  messageId: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

export interface SendOutcome {
  ok: boolean;
  /** The relay's answer (250 …), or the error's. */
  response: string | null;
  /** Whether another attempt may succeed: a refusal with a 5xx code will not. */
  permanent: boolean;
  reason: string | null;
}

export interface Mailer {
  send(message: OutgoingMessage): Promise<SendOutcome>;
  close(): void;
}

/** The transport's options from the operator's settings. */
export function transportOptions(config: EmailConfig): SMTPTransport.Options {
  const url = config.smtpUrl;
  const secure = url.protocol === 'smtps:';
  const loopback = isLoopbackHost(url.hostname);
  const options: SMTPTransport.Options = {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    requireTLS: !secure && !loopback,
    connectionTimeout: SMTP_TIMEOUTS_MS.connection,
    greetingTimeout: SMTP_TIMEOUTS_MS.greeting,
    socketTimeout: SMTP_TIMEOUTS_MS.socket,
    tls: { minVersion: 'TLSv1.2', ...(config.tlsCaFile ? { ca: readFileSync(config.tlsCaFile, 'utf8') } : {}) },
  };
  if (url.username) options.auth = { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) };
  if (config.dkim) {
    options.dkim = {
      domainName: config.dkim.domainName,
      keySelector: config.dkim.keySelector,
      privateKey: readFileSync(config.dkim.privateKeyFile, 'utf8'),
    };
  }
  return options;
}

interface SmtpError {
  message?: string;
  responseCode?: number;
  response?: string;
}

export function smtpMailer(config: EmailConfig): Mailer {
  // The options are read at once, so a DKIM key file that cannot be read fails the start; nodemailer
  // itself (some 20 MB resident) loads with the first mail, not with every process.
  const options = transportOptions(config);
  let transport: Promise<Transporter<SMTPTransport.SentMessageInfo>> | undefined;
  const open = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options)));
  return {
    async send(message) {
      try {
        const sender = await open();
        const info = await sender.sendMail({
          from: message.from,
          ...(message.replyTo ? { replyTo: message.replyTo } : {}),
          to: message.to,
          ...(message.cc.length > 0 ? { cc: message.cc } : {}),
          subject: message.subject,
          text: message.text,
          messageId: message.messageId,
          attachments: message.attachments,
        });
        const rejected = info.rejected.map(String);
        if (rejected.length > 0 && info.accepted.length === 0) {
          return {
            ok: false,
            response: info.response,
            permanent: true,
            reason: `every recipient was refused: ${rejected.join(', ')}`,
          };
        }
        return { ok: true, response: info.response, permanent: false, reason: null };
      } catch (error) {
        const smtp = error as SmtpError;
        const code = typeof smtp.responseCode === 'number' ? smtp.responseCode : null;
        const response = smtp.response ?? null;
        return { ok: false, response, permanent: code !== null && code >= 500, reason: smtp.message ?? String(error) };
      }
    },
    close() {
      void transport?.then((opened) => opened.close());
    },
  };
}
