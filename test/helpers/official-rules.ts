import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CI, EINVOICE_DIR } from './einvoice-files.js';

// The official EN 16931 rules, run by ../shared/einvoice/validate.mjs (Saxon-HE, xmllint,
// pdfdetach) over folders of documents in one call: one Java start per syntax. Under CI=true a
// missing tool is a failure, not a skip.

export interface OfficialAssert {
  id: string;
  flag: string;
  location: string;
  text: string;
}

export interface OfficialResult {
  file: string;
  syntax: 'ubl' | 'cii' | null;
  xsd: 'ok' | string[] | null;
  rules: { cen?: OfficialAssert[] };
  error?: string;
}

const VALIDATE = join(EINVOICE_DIR, 'validate.mjs');
const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
export const hasOfficialRules =
  (existsSync(VALIDATE) &&
    has('java') &&
    has('xmllint') &&
    has('pdfdetach') &&
    existsSync('/usr/share/java/Saxon-HE.jar')) ||
  CI;

/** Runs the CEN rules on files and folders; throws when the validator itself fails (exit 2). */
export function officialCen(paths: string[]): OfficialResult[] {
  // Into a file, not a pipe: the validator exits right after writing, which would cut a pipe short.
  const dir = mkdtempSync(join(tmpdir(), 'official-'));
  const out = join(dir, 'results.json');
  const fd = openSync(out, 'w');
  try {
    const run = spawnSync(process.execPath, [VALIDATE, '--rules', 'cen', '--json', ...paths], {
      stdio: ['ignore', fd, 'pipe'],
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    if (run.status !== 0 && run.status !== 1)
      throw new Error(`validate.mjs failed (${run.status}): ${String(run.stderr).slice(-2000)}`);
    closeSync(fd);
    return JSON.parse(readFileSync(out, 'utf8')) as OfficialResult[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const isFatal = (a: OfficialAssert) => a.flag === 'fatal' || a.flag === 'error';

/** The fatal business rules (BR-…) the official rules report. */
export const officialFatalBr = (r: OfficialResult) =>
  new Set((r.rules.cen ?? []).filter((a) => isFatal(a) && a.id.startsWith('BR-')).map((a) => a.id));

/** The official verdict: rejected by the schema, by any fatal rule, or unreadable for them. */
export const officiallyRejected = (r: OfficialResult) =>
  r.error !== undefined || r.xsd !== 'ok' || (r.rules.cen ?? []).some(isFatal);
