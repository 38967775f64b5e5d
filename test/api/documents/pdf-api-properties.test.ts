import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/money/decimal.js';
import { buildTestApp, type TestApp } from '../../helpers/build.js';
import { DIALECTS } from '../../helpers/dialects.js';
import {
  canInspectPdf,
  hasPoppler,
  pdfAttachments,
  pdfNotdefGlyphs,
  pdfPlainText,
  pdfQrPayloads,
} from '../../helpers/pdf-tools.js';

// The PDFs the API answers, over random invoices and credit notes with payments, credits, voids,
// drafts and test mode, in de, en and fr: no credit note, draft, test document or settled
// balance asks for money (no payment instruction, no code), every code a reader scans is for
// exactly the amount open, the issued document downloads as the same bytes after a restart (the
// SHA-256 its answer shows), every name comes back from pdftotext in its script, and no glyph is
// drawn as .notdef.

type Json = Record<string, unknown>;
type Flow =
  'draft' | 'issued' | 'paid-partly' | 'paid' | 'credited-partly' | 'credited-after-payment' | 'void' | 'test-mode';

/** Names in the scripts every PDF must draw (issue 25, point 3). */
const NAMES = [
  'Müller & Söhne Straße GmbH',
  'Ελληνική Εταιρεία Εμπορίου',
  'ООО «Ромашка» Москва',
  'شركة الأمل للتجارة',
  'חברת השלום בע״מ',
  '漢字株式会社',
  'さくら商事 株式会社',
  '한국무역 주식회사',
  'Café Sonne 😀 🎉',
];

const SELLERS = {
  DE: { iban: 'DE89370400440532013000', city: 'Berlin', postalCode: '10115', vatId: 'DE123456789' },
  BE: { iban: 'BE68539007547034', city: 'Bruxelles', postalCode: '1000', vatId: 'BE0123456749' },
  FR: { iban: 'FR1420041010050500013M02606', city: 'Paris', postalCode: '75001', vatId: 'FR40303265045' },
} as const;

interface Scenario {
  lang: 'de' | 'en' | 'fr';
  seller: keyof typeof SELLERS;
  buyerName: string;
  buyerCountry: string;
  lineNames: string[];
  flow: Flow;
}

const scenarios: Scenario[] = fc.sample(
  fc.record({
    lang: fc.constantFrom('de', 'en', 'fr'),
    seller: fc.constantFrom('DE', 'BE', 'FR'),
    buyerName: fc.constantFrom(...NAMES),
    buyerCountry: fc.constantFrom('DE', 'FR', 'BE', 'GB'),
    lineNames: fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
    flow: fc.constantFrom<Flow>(
      'draft',
      'issued',
      'paid-partly',
      'paid',
      'credited-partly',
      'credited-after-payment',
      'void',
      'test-mode',
    ),
  }),
  { numRuns: 12, seed: 25 },
);
// Every flow at least once, whatever the sample drew.
const FLOWS: Flow[] = [
  'draft',
  'issued',
  'paid-partly',
  'paid',
  'credited-partly',
  'credited-after-payment',
  'void',
  'test-mode',
];
FLOWS.forEach((flow, i) =>
  scenarios.push({ ...scenarios[i % scenarios.length]!, buyerName: NAMES[i % NAMES.length]!, flow }),
);

const grouped = (iban: string) => iban.replace(/(.{4})(?=.)/g, '$1 ');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface Downloaded {
  kind: 'invoice' | 'credit-note';
  id: string;
  lang: Scenario['lang'];
  pdf: Buffer;
}

describe.skipIf(!canInspectPdf)('the PDFs of the API', () => {
  for (const dialect of DIALECTS) {
    describe(`on ${dialect}`, () => {
      let api: TestApp;
      let restartedOnce = false;
      const originals: Downloaded[] = [];

      beforeAll(async () => {
        api = await buildTestApp(dialect);
      });
      afterAll(async () => {
        if (!restartedOnce) await api?.close();
        else await api.database.drop();
      });

      const pdfOf = async (key: string, path: string) => {
        const res = await api.get(path, key);
        expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
        return res.rawPayload;
      };

      it('asks for money only where it is owed, for exactly that amount, and draws every script', async () => {
        expect(hasPoppler, 'poppler-utils are required').toBe(true);
        for (const [n, s] of scenarios.entries()) {
          const seller = SELLERS[s.seller];
          const companyId = await api.createCompany(`Seller ${n}`);
          const profile = await api.container.companyProfiles.update(
            companyId,
            {
              legalName: `Seller ${n} GmbH`,
              line1: 'Hauptstraße 1',
              city: seller.city,
              postalCode: seller.postalCode,
              countryCode: s.seller,
              vatId: seller.vatId,
              iban: seller.iban,
              paymentTerms: 'Within 14 days.',
            },
            { userId: null, label: 'test' },
          );
          expect(profile.ok, JSON.stringify(profile)).toBe(true);
          const { key } = await api.createKey(
            companyId,
            [
              'organization.create',
              'invoice.create',
              'invoice.read',
              'invoice.update',
              'payment.create',
              'credit-note.create',
              'credit-note.read',
            ],
            {
              mode: s.flow === 'test-mode' ? 'test' : 'live',
            },
          );
          const buyer = await api.post(
            '/organization',
            {
              name: `${s.buyerName} ${n}`,
              isCustomer: true,
              address: { line1: 'Rue 1', city: 'Ville', postalCode: '1000', countryCode: s.buyerCountry },
            },
            key,
          );
          expect(buyer.statusCode, buyer.body).toBe(201);
          const lines = s.lineNames.map((name, i) => ({
            name,
            quantity: String(i + 2),
            unitPrice: '119.50',
            vatRate: '19',
          }));
          const created = await api.post(
            '/invoice',
            {
              organizationId: buyer.json().data.id,
              issueDate: '2026-03-02',
              lines,
              ...(s.flow === 'draft' ? { status: 'draft' } : {}),
            },
            key,
          );
          expect(created.statusCode, created.body).toBe(201);
          const invoiceId = created.json().data.id as string;
          const payable = new Decimal(created.json().data.totals.payable as string);
          const half = payable.div(2).toFixed(2);
          const credits: string[] = [];
          const pay = async (amount: string) =>
            expect((await api.post(`/invoice/${invoiceId}/payment`, { amount }, key)).statusCode).toBe(201);
          const credit = async (quantity: string) => {
            const res = await api.post(
              '/credit-note',
              { invoiceId, reason: 'Returned goods', lines: [{ ...lines[0]!, quantity }] },
              key,
            );
            expect(res.statusCode, res.body).toBe(201);
            credits.push(res.json().data.id as string);
          };
          if (s.flow === 'paid-partly') await pay(half);
          if (s.flow === 'paid') await pay(payable.toFixed(2));
          if (s.flow === 'credited-partly') await credit('1');
          if (s.flow === 'credited-after-payment') {
            await pay(payable.toFixed(2));
            await credit('1');
          }
          if (s.flow === 'void') {
            const voided = await api.post(`/invoice/${invoiceId}/void`, {}, key);
            expect(voided.statusCode, voided.body).toBe(200);
            credits.push(...(voided.json().data.creditNoteIds as string[]));
          }
          const invoice = (await api.get(`/invoice/${invoiceId}`, key)).json().data as Json & {
            amountDue: string;
            status: string;
          };
          const due = new Decimal(invoice.amountDue);
          const iban = grouped(seller.iban);

          // The document as issued: its payable, asked for once (with a code for a euro transfer), unless it is a draft or a test document.
          const original = await pdfOf(key, `/invoice/${invoiceId}/pdf?lang=${s.lang}`);
          const originalText = pdfPlainText(original);
          const asks = s.flow !== 'draft' && s.flow !== 'test-mode';
          expect(pdfQrPayloads(original)).toEqual(
            asks ? [expect.stringContaining(`\nEUR${payable.toFixed(2)}\n`)] : [],
          );
          expect(originalText.includes(iban), `${s.flow}: the IBAN on the issued invoice`).toBe(asks);
          if (s.flow === 'test-mode') expect(originalText).toMatch(/TEST,|auf TEST|sur TEST/);
          if (s.flow !== 'draft') {
            originals.push({ kind: 'invoice', id: invoiceId, lang: s.lang, pdf: original });
            // The XML inside is the XML the API serves, or there is none when the API refuses it.
            const cii = await api.get(`/invoice/${invoiceId}/cii`, key);
            expect(pdfAttachments(original).first).toBe(cii.statusCode === 200 ? cii.body : null);
          }
          if (s.seller === 'BE' && asks) expect(originalText).toMatch(/\+\+\+\d{3}\/\d{4}\/\d{5}\+\+\+/);

          // Every name in its script, and no .notdef.
          for (const word of [`${s.buyerName} ${n}`, ...s.lineNames].flatMap((name) => name.split(' ')))
            expect(originalText, `${word} in ${s.lang}`).toContain(word);
          expect(pdfNotdefGlyphs(original)).toBe(0);

          // The status copy: exactly the open balance, or nothing.
          if (s.flow !== 'draft') {
            const copy = await pdfOf(key, `/invoice/${invoiceId}/pdf?lang=${s.lang}&copy=status`);
            const copyText = pdfPlainText(copy);
            const open = due.greaterThan(0) && s.flow !== 'test-mode';
            expect(pdfQrPayloads(copy), `${s.flow}: the code on the status copy`).toEqual(
              open ? [expect.stringContaining(`\nEUR${due.toFixed(2)}\n`)] : [],
            );
            expect(copyText.includes(iban), `${s.flow}: the IBAN on the status copy`).toBe(open);
            expect(copyText).toMatch(/with the status on|mit dem Stand vom|avec la situation au/);
            expect(pdfNotdefGlyphs(copy)).toBe(0);
          }

          // A credit note asks for nothing and says how it settles.
          for (const id of credits) {
            const note = await pdfOf(key, `/credit-note/${id}/pdf?lang=${s.lang}`);
            const text = pdfPlainText(note);
            expect(pdfQrPayloads(note)).toEqual([]);
            expect(text.includes(iban), 'the IBAN on a credit note').toBe(false);
            expect(text).not.toMatch(/Within 14 days|Gutschrift\b/);
            expect(text).toMatch({ en: /Credit note/, de: /Rechnungskorrektur/, fr: /Avoir/ }[s.lang]);
            expect(text).toMatch(
              /set off|verrechnet|imputés|refunded|erstattet|remboursés|cancelled|storniert|annulée/,
            );
            expect(pdfNotdefGlyphs(note)).toBe(0);
            originals.push({ kind: 'credit-note', id, lang: s.lang, pdf: note });
          }
        }
      }, 600_000);

      it('answers the same bytes for an issued document after a restart, whose SHA-256 its answer shows', async () => {
        expect(originals.length).toBeGreaterThan(0);
        restartedOnce = true;
        await api.app.close();
        await api.storage.close();
        const restarted = await buildTestApp(dialect, {}, { database: api.database });
        try {
          for (const { kind, id, lang, pdf } of originals) {
            const owner =
              kind === 'invoice'
                ? await restarted.storage.db
                    .selectFrom('invoices')
                    .select(['company_id', 'livemode'])
                    .where('id', '=', id)
                    .executeTakeFirstOrThrow()
                : await restarted.storage.db
                    .selectFrom('credit_notes')
                    .select(['company_id', 'livemode'])
                    .where('id', '=', id)
                    .executeTakeFirstOrThrow();
            const { key } = await restarted.createKey(owner.company_id, ['invoice.read', 'credit-note.read'], {
              mode: owner.livemode === 1 ? 'live' : 'test',
            });
            const again = await restarted.get(`/${kind}/${id}/pdf?lang=${lang}`, key);
            expect(again.rawPayload.equals(pdf), `${kind} ${id} in ${lang}`).toBe(true);
            const answer = (await restarted.get(`/${kind}/${id}`, key)).json().data as {
              pdfSha256: Record<string, string | null>;
            };
            expect(answer.pdfSha256[lang]).toBe(sha256(pdf));
          }
        } finally {
          await restarted.app.close();
          await restarted.storage.close();
        }
      }, 300_000);
    });
  }
});
