// Validates random documents of every format against the official validation artefacts.
// A development check, not CI: the artefacts are not part of this repository; pass the compiled
// XSLT files (SVRL output) in environment variables:
//
//   EN16931_UBL_XSLT  EN16931_CII_XSLT   CEN/TC 434 (ConnectingEurope/eInvoicing-EN16931)
//   PEPPOL_UBL_XSLT                      Peppol BIS Billing 3.0 rules (OpenPEPPOL/peppol-bis-invoice-3)
//   XRECHNUNG_UBL_XSLT XRECHNUNG_CII_XSLT  XRechnung rules (itplr-kosit/xrechnung-schematron)
//   SAXON_JAR (default /usr/share/java/Saxon-HE.jar), EINVOICE_SAMPLES_COUNT (default 300)
//
//   node scripts/validate-einvoices.mjs          documents from the engine (the views of document-arbitraries.ts)
//   node scripts/validate-einvoices.mjs --api    documents made THROUGH THE API: companies, buyers,
//                                                invoices and credit notes created with the app on a
//                                                temp SQLite database, fetched from its endpoints
//                                                (scripts/einvoice-api-samples.ts)
//
// Counts per format and validator: documents, documents with a fatal failed assert (flag fatal,
// error or none), and warnings; lists each rule that failed. Exits 1 on any fatal failure.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const say = (line) => process.stdout.write(`${line}\n`);
const SAXON = process.env.SAXON_JAR ?? '/usr/share/java/Saxon-HE.jar';
const count = process.env.EINVOICE_SAMPLES_COUNT ?? '300';
const env = (name) => {
  const value = process.env[name];
  if (!value || !existsSync(value))
    throw new Error(`Set ${name} to the path of the compiled XSLT (got ${value ?? 'nothing'})`);
  return value;
};
// The shared reference data sits beside the checkout; a worktree finds it in /work/shared.
const EINVOICE_DIR = [resolve(ROOT, '../shared/einvoice'), '/work/shared/einvoice'].find((dir) => existsSync(dir));
if (!EINVOICE_DIR) throw new Error('The e-invoice schemas are missing: expected ../shared/einvoice');
const XSD = {
  ubl: (format) =>
    join(
      EINVOICE_DIR,
      'xsd/ubl-2.1/maindoc',
      format.includes('creditnote') ? 'UBL-CreditNote-2.1.xsd' : 'UBL-Invoice-2.1.xsd',
    ),
  cii: () => join(EINVOICE_DIR, 'xsd/cii-d16b-en16931/FACTUR-X_EN16931.xsd'),
};
const VALIDATORS = {
  'ubl-peppol': ['EN16931_UBL_XSLT', 'PEPPOL_UBL_XSLT'],
  'ubl-xrechnung': ['EN16931_UBL_XSLT', 'XRECHNUNG_UBL_XSLT'],
  'cii-en16931': ['EN16931_CII_XSLT'],
  'cii-xrechnung': ['EN16931_CII_XSLT', 'XRECHNUNG_CII_XSLT'],
};

const api = process.argv.includes('--api');
// Fail before writing anything when an artefact is missing.
for (const variable of new Set(Object.values(VALIDATORS).flat())) env(variable);

const dir = mkdtempSync(join(tmpdir(), 'einvoices-'));
say(`Writing ${count} documents of each format${api ? ' through the API' : ''} to ${dir}`);
execFileSync(
  'npx',
  [
    'vitest',
    'run',
    '--config',
    api ? 'scripts/einvoice-api-samples.vitest.config.ts' : 'scripts/einvoice-samples.vitest.config.ts',
  ],
  {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, EINVOICE_SAMPLES_DIR: dir, EINVOICE_SAMPLES_COUNT: count },
  },
);
const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));

let fatalTotal = 0;
for (const [format, { written, refused, refusedDocuments }] of Object.entries(summary)) {
  const base = format.replace('-creditnote', '');
  const files = readdirSync(join(dir, format)).map((f) => join(dir, format, f));
  const refusedText = Object.keys(refused).length
    ? ` (refused${api ? ` with 422: ${refusedDocuments} documents, by rule` : ' by problemsFor'}: ${JSON.stringify(refused)})`
    : '';
  say(`\n== ${format}: ${written} documents${refusedText}`);
  const xsd = format.startsWith('ubl') ? XSD.ubl(format) : XSD.cii();
  let xsdFailures = 0;
  for (let i = 0; i < files.length; i += 200) {
    const batch = files.slice(i, i + 200);
    const run = spawnSync('xmllint', ['--noout', '--schema', xsd, ...batch], { encoding: 'utf8' });
    const verdicts = run.stderr.match(/ (validates|fails to validate)$/gm) ?? [];
    // Every file gets a verdict, or xmllint itself failed (no schema, no xmllint): stop.
    if (verdicts.length !== batch.length)
      throw new Error(
        `xmllint gave ${verdicts.length} verdicts for ${batch.length} files: ${run.error ?? run.stderr.slice(0, 500)}`,
      );
    xsdFailures += verdicts.filter((v) => v.includes('fails')).length;
  }
  say(`   XSD ${xsd.split('/').pop()}: ${xsdFailures} invalid`);
  fatalTotal += xsdFailures;
  for (const variable of VALIDATORS[base]) {
    const out = join(dir, `${format}.${variable}`);
    mkdirSync(out);
    execFileSync(
      'java',
      ['-cp', SAXON, 'net.sf.saxon.Transform', `-s:${join(dir, format)}`, `-xsl:${env(variable)}`, `-o:${out}`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let fatalDocs = 0;
    let warningCount = 0;
    const rules = {};
    for (const report of readdirSync(out)) {
      const svrl = readFileSync(join(out, report), 'utf8');
      let fatalHere = false;
      for (const [, attributes] of svrl.matchAll(/<svrl:failed-assert\b([^>]*)>/g)) {
        const id = /\bid="([^"]*)"/.exec(attributes)?.[1] ?? '?';
        const flag = /\bflag="([^"]*)"/.exec(attributes)?.[1] ?? 'none';
        const fatal = flag === 'fatal' || flag === 'error' || flag === 'none';
        if (fatal) fatalHere = true;
        else warningCount++;
        const key = `${id} (${flag})`;
        rules[key] = (rules[key] ?? 0) + 1;
      }
      if (fatalHere) fatalDocs++;
    }
    fatalTotal += fatalDocs;
    say(
      `   ${variable}: ${fatalDocs} documents with fatal failures, ${warningCount} warnings${Object.keys(rules).length ? ` ${JSON.stringify(rules)}` : ''}`,
    );
  }
}
say(`\n${fatalTotal === 0 ? 'OK' : 'FAILED'}: ${fatalTotal} fatal failures`);
process.exit(fatalTotal === 0 ? 0 : 1);
