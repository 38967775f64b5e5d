import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { fromHeader, xmlRequestOf } from '../../src/delivery/email-delivery-service.js';
import { transportOptions } from '../../src/delivery/mailer.js';
import { DEFAULT_TEMPLATES, fillTemplate, languageFor } from '../../src/delivery/templates.js';

// The operator's SMTP settings, the transport they make, and the messages' templates: no I/O.

const base = { SMTP_FROM: 'invoices@service.example' };

describe('the SMTP settings', () => {
  it('leaves sending off without SMTP_URL', () => {
    expect(loadConfig({}).email).toBeUndefined();
  });

  it('requires TLS for a relay beyond this machine and lets a loopback relay speak in clear', () => {
    const remote = transportOptions(
      loadConfig({ ...base, SMTP_URL: 'smtp://user:p%40ss@relay.example.com:587' }).email!,
    );
    expect(remote).toMatchObject({
      host: 'relay.example.com',
      port: 587,
      secure: false,
      requireTLS: true,
      auth: { user: 'user', pass: 'p@ss' },
    });
    const implicit = transportOptions(loadConfig({ ...base, SMTP_URL: 'smtps://relay.example.com' }).email!);
    expect(implicit).toMatchObject({ port: 465, secure: true, requireTLS: false });
    expect(transportOptions(loadConfig({ ...base, SMTP_URL: 'smtp://127.0.0.1:2525' }).email!)).toMatchObject({
      requireTLS: false,
    });
    expect(transportOptions(loadConfig({ ...base, SMTP_URL: 'smtp://[::1]:2525' }).email!)).toMatchObject({
      host: '::1',
      requireTLS: false,
    });
  });

  it('refuses a URL that is no SMTP relay, a missing SMTP_FROM, and DKIM settings given in part', () => {
    expect(() => loadConfig({ ...base, SMTP_URL: 'http://relay.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ SMTP_URL: 'smtp://relay.example.com' })).toThrow(/SMTP_FROM/);
    expect(() =>
      loadConfig({ ...base, SMTP_URL: 'smtp://relay.example.com', EMAIL_DKIM_DOMAIN: 'service.example' }),
    ).toThrow(/DKIM/);
    expect(() =>
      loadConfig({ ...base, SMTP_URL: 'smtp://relay.example.com', EMAIL_RETRY_SCHEDULE_MS: 'soon' }),
    ).toThrow(/EMAIL_RETRY_SCHEDULE_MS/);
  });

  it('reads the retry schedule and the concurrency', () => {
    const email = loadConfig({
      ...base,
      SMTP_URL: 'smtp://relay.example.com',
      EMAIL_RETRY_SCHEDULE_MS: '100, 200',
      EMAIL_MAX_CONCURRENT: '7',
    }).email!;
    expect(email.retryScheduleMs).toEqual([100, 200]);
    expect(email.maxConcurrent).toBe(7);
  });
});

describe('the message', () => {
  const values = {
    number: '2026-00042',
    seller: 'Acme GmbH',
    buyer: 'Käufer AG',
    amount: '71.36',
    currency: 'EUR',
    issueDate: '2026-03-02',
    dueDate: '2026-03-16',
  };

  it('fills the template of the kind and language, and leaves an unknown name as written', () => {
    expect(fillTemplate(DEFAULT_TEMPLATES.invoice.de, values).subject).toBe('Rechnung 2026-00042 von Acme GmbH');
    expect(fillTemplate(DEFAULT_TEMPLATES['credit-note'].fr, values).subject).toBe('Avoir 2026-00042 de Acme GmbH');
    expect(fillTemplate(DEFAULT_TEMPLATES.invoice.en, values).body).toContain('over 71.36 EUR, due on 2026-03-16');
    expect(fillTemplate({ subject: '{{numbr}}', body: '' }, values).subject).toBe('{{numbr}}');
  });

  it('keeps a subject on one line whatever a value holds', () => {
    expect(fillTemplate(DEFAULT_TEMPLATES.invoice.en, { ...values, seller: 'Evil\r\nBcc: x@y.example' }).subject).toBe(
      'Invoice 2026-00042 from Evil Bcc: x@y.example',
    );
    expect(fromHeader('A "quoted"\r\nname', 'invoices@service.example')).toBe(
      '"A quoted name" <invoices@service.example>',
    );
  });

  it("chooses the language by the buyer's country", () => {
    expect(['DE', 'AT', 'CH', 'FR', 'NL', null].map(languageFor)).toEqual(['de', 'de', 'de', 'fr', 'en', 'en']);
  });

  it('attaches the XML each format names, as its download', () => {
    expect(xmlRequestOf('cii')).toEqual({ format: 'cii', profile: 'en16931' });
    expect(xmlRequestOf('xrechnung-cii')).toEqual({ format: 'cii', profile: 'xrechnung' });
    expect(xmlRequestOf('xrechnung-ubl')).toEqual({ format: 'ubl', profile: 'xrechnung' });
    expect(xmlRequestOf('peppol')).toEqual({ format: 'ubl', profile: 'peppol' });
  });
});
