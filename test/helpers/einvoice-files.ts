import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// The shared e-invoice reference data (XSDs, official examples) and xmllint. The data lives next
// to the checkout (../shared/einvoice), never in the project. Under CI=true a missing xmllint or
// missing data fails the tests instead of skipping them.

const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const EINVOICE_DIR =
  [resolve(REPO_ROOT, '../shared/einvoice'), '/work/shared/einvoice'].find((dir) => existsSync(dir)) ??
  resolve(REPO_ROOT, '../shared/einvoice');

export const XSD = {
  ublInvoice: join(EINVOICE_DIR, 'xsd/ubl-2.1/maindoc/UBL-Invoice-2.1.xsd'),
  ublCreditNote: join(EINVOICE_DIR, 'xsd/ubl-2.1/maindoc/UBL-CreditNote-2.1.xsd'),
  cii: join(EINVOICE_DIR, 'xsd/cii-d16b-en16931/FACTUR-X_EN16931.xsd'),
};

export const CI = process.env.CI === 'true';
export const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;
export const hasSchemas = existsSync(XSD.ublInvoice) && existsSync(XSD.cii);
/** Tools and data are there, or CI demands them (the tests then fail on their absence). */
export const canValidate = (hasXmllint && hasSchemas) || CI;

export interface XsdResult {
  name: string;
  valid: boolean;
  errors: string;
}

/** Validates many documents against one schema with a single xmllint run. */
export function validateAgainstXsd(documents: { name: string; xml: string }[], xsd: string): XsdResult[] {
  if (!hasXmllint) throw new Error('xmllint is missing: install Debian libxml2-utils');
  if (!existsSync(xsd))
    throw new Error(`The schema ${xsd} is missing: the e-invoice data belongs in ../shared/einvoice`);
  if (documents.length === 0) return [];
  const dir = mkdtempSync(join(tmpdir(), 'xsd-'));
  try {
    const files = documents.map((doc, i) => {
      const file = join(dir, `${i}.xml`);
      writeFileSync(file, doc.xml);
      return file;
    });
    let output = '';
    try {
      execFileSync('xmllint', ['--noout', '--schema', xsd, ...files], { stdio: 'pipe' });
    } catch (error) {
      output = String((error as { stderr?: Buffer }).stderr ?? '');
    }
    return documents.map((doc, i) => {
      const lines = output
        .split('\n')
        .filter((line) => line.startsWith(`${files[i]}:`) || line === `${files[i]} fails to validate`);
      return { name: doc.name, valid: lines.length === 0, errors: lines.join('\n') };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
