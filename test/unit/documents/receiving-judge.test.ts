import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { problemsFor } from '../../../src/documents/index.js';
import { judge, judgeDocument, readDocument, type DocumentRead } from '../../../src/documents/read/index.js';
import { EINVOICE_DIR } from '../../helpers/einvoice-files.js';
import { germanInput, viewOf } from '../../helpers/sample-document.js';

// The verdict and its findings: rule id, severity, business term, and where in the document.

const example = (path: string) => readFileSync(join(EINVOICE_DIR, 'examples', path), 'utf8');

async function read(xml: string): Promise<DocumentRead> {
  const result = await readDocument(Buffer.from(xml));
  if (!result.ok) throw new Error(result.message);
  return result;
}

describe('judging a received document', () => {
  it('finds a valid Peppol invoice valid by EN 16931 and Peppol, the rule sets it claims', async () => {
    const doc = await read(example('peppol/base-example.xml'));
    expect(doc).toMatchObject({ syntax: 'ubl', kind: 'invoice', profile: 'peppol', claims: ['en16931', 'peppol'] });
    expect(judgeDocument(doc)).toMatchObject({ verdict: 'valid', findings: [], structure: { valid: true } });
  });

  it('names a changed total by its rule, term and the element it sits in', async () => {
    const doc = await read(
      example('peppol/base-example.xml').replace(
        '<cbc:PayableAmount currencyID="EUR">1656.25</cbc:PayableAmount>',
        '<cbc:PayableAmount currencyID="EUR">1656.26</cbc:PayableAmount>',
      ),
    );
    const judged = judgeDocument(doc);
    expect(judged.verdict).toBe('invalid');
    expect(judged.findings).toEqual([
      expect.objectContaining({
        rule: 'BR-CO-16',
        severity: 'fatal',
        term: 'BT-115',
        field: 'totals.payable',
        location: '/Invoice[1]/cac:LegalMonetaryTotal[1]',
        message: expect.stringMatching(/1656\.25/),
      }),
    ]);
  });

  it('locates a finding on a line in that line', async () => {
    const xml = example('peppol/base-example.xml');
    const second = xml.indexOf('<cac:InvoiceLine>', xml.indexOf('<cac:InvoiceLine>') + 1);
    const broken = xml.slice(0, second) + xml.slice(second).replace(/<cbc:Name>[^<]*<\/cbc:Name>/, '');
    const judged = judgeDocument(await read(broken));
    expect(judged.findings).toContainEqual(
      expect.objectContaining({
        rule: 'BR-25',
        term: 'BT-153',
        field: 'lines[1].name',
        location: '/Invoice[1]/cac:InvoiceLine[2]',
      }),
    );
  });

  it('holds an XRechnung to the German rules it claims, and only then', async () => {
    const doc = await read(
      example('xrechnung/01.01a-INVOICE_ubl.xml').replace(/<cbc:BuyerReference>[^<]*<\/cbc:BuyerReference>/, ''),
    );
    expect(doc.claims).toEqual(['en16931', 'xrechnung']);
    expect(judgeDocument(doc).findings.map((f) => f.rule)).toContain('BR-DE-15');
    expect(judgeDocument(doc, ['en16931']).verdict).toBe('valid');
  });

  it('judges a Factur-X MINIMUM by EN 16931 all the same, which it is not: it has no lines', async () => {
    const cii = example('cen-cii/CII_example4.xml');
    const minimum = cii
      .replace(/(<ram:GuidelineSpecifiedDocumentContextParameter>\s*<ram:ID>)[^<]*/, '$1urn:factur-x.eu:1p0:minimum')
      .replace(/<ram:IncludedSupplyChainTradeLineItem>[\s\S]*?<\/ram:IncludedSupplyChainTradeLineItem>/g, '');
    const doc = await read(minimum);
    expect(doc).toMatchObject({ syntax: 'cii', profile: 'factur-x-minimum', claims: ['en16931'] });
    const judged = judgeDocument(doc);
    expect(judged.verdict).toBe('invalid');
    expect(judged.findings).toContainEqual(expect.objectContaining({ rule: 'BR-16', term: 'BG-25' }));
  });

  it('accepts a VAT amount within the official tolerance of one unit, with a warning that it is not exact', async () => {
    const xml = example('peppol/base-example.xml');
    const doc = await read(
      xml.replace(
        '<cbc:TaxAmount currencyID="EUR">331.25</cbc:TaxAmount>\n            <cac:TaxCategory>',
        '<cbc:TaxAmount currencyID="EUR">331.26</cbc:TaxAmount>\n            <cac:TaxCategory>',
      ),
    );
    const subtotal = doc.model.vatBreakdown.find((b) => b.taxAmount === '331.26');
    if (!subtotal) return expect.fail('the example changed: no VAT subtotal of 331.25');
    const judged = judge(doc.model, ['en16931'], { syntax: 'ubl' });
    expect(judged.findings).toContainEqual(expect.objectContaining({ rule: 'BR-CO-17', severity: 'warning' }));
    expect(judged.findings.filter((f) => f.rule === 'BR-CO-17' && f.severity === 'fatal')).toEqual([]);
  });
});

describe('the same engine before issuing', () => {
  it('refuses, through problemsFor, a view whose totals no longer add up, which no check of the API fields sees', () => {
    const view = viewOf(germanInput());
    expect(problemsFor(view, ['en16931'])).toEqual([]);
    const tampered = { ...view, totals: { ...view.totals, payable: '1.00' } };
    expect(problemsFor(tampered, ['en16931'])).toContainEqual(
      expect.objectContaining({ field: 'totals.payable', code: 'BR-CO-16' }),
    );
  });
});
