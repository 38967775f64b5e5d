import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeDocument, readDocument } from '../../../src/documents/read/index.js';
import { EINVOICE_DIR } from '../../helpers/einvoice-files.js';
import { mutate } from '../../helpers/einvoice-mutations.js';
import {
  hasOfficialRules,
  officialCen,
  officialFatalBr,
  officiallyRejected,
  type OfficialResult,
} from '../../helpers/official-rules.js';

// Our rule engine held against the official EN 16931 rules (CEN validation artefacts, run with
// Saxon by ../shared/einvoice/validate.mjs) on every example of ../shared/einvoice/examples and
// on mutations of them made by a seeded generator. For every document: each fatal business rule
// (BR-…) the official rules fire, ours fires too, with the same id; and a document they accept
// (schema and rules), ours does not call invalid. All in one validator call.

const FOLDERS = ['cen-ubl', 'cen-cii', 'peppol', 'xrechnung', 'facturx', 'broken'].map((f) =>
  join(EINVOICE_DIR, 'examples', f),
);
const MUTATIONS = Number(process.env.EINVOICE_MUTATIONS ?? 600);
const SEED = Number(process.env.EINVOICE_MUTATION_SEED ?? 27);

interface Compared {
  name: string;
  description: string;
  official: Set<string>;
  ours: Set<string>;
  officialRejects: boolean;
  oursRejects: boolean;
  refused: string | null;
}

describe.skipIf(!hasOfficialRules)('agreement with the official EN 16931 rules', () => {
  let dir: string;
  const compared: Compared[] = [];
  let mutationCount = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'einvoice-mutations-'));
    const bases = FOLDERS.slice(0, 4).flatMap((folder) =>
      readdirSync(folder)
        .filter((f) => f.endsWith('.xml'))
        .map((f) => ({ name: f, xml: readFileSync(join(folder, f), 'utf8') })),
    );
    const mutations = mutate(bases, MUTATIONS, SEED);
    mutationCount = mutations.length;
    const described = new Map<string, string>();
    for (const m of mutations) {
      writeFileSync(join(dir, m.name), m.xml);
      described.set(m.name, `${m.description} in ${m.base}`);
    }
    // EINVOICE_OFFICIAL_CACHE (a file outside the repository) keeps the official results between
    // runs while the engine is worked on; the mutations are the same for the same seed.
    const cache = process.env.EINVOICE_OFFICIAL_CACHE;
    let results: OfficialResult[];
    if (cache && existsSync(cache)) {
      results = (JSON.parse(readFileSync(cache, 'utf8')) as OfficialResult[]).map((r) =>
        r.file.includes('einvoice-mutations-') ? { ...r, file: join(dir, basename(r.file)) } : r,
      );
    } else {
      results = officialCen([...FOLDERS, dir]);
      if (cache) writeFileSync(cache, JSON.stringify(results));
    }
    for (const result of results) {
      const read = await readDocument(readFileSync(result.file));
      const name = basename(result.file);
      const judged = read.ok ? judgeDocument(read, ['en16931']) : null;
      const all = judged ? [...judged.structure.findings, ...judged.findings] : [];
      compared.push({
        name: result.file.startsWith(dir) ? name : result.file.slice(EINVOICE_DIR.length + 1),
        description: described.get(name) ?? 'official example',
        official: officialFatalBr(result),
        ours: new Set(all.filter((f) => f.severity === 'fatal' && f.rule.startsWith('BR-')).map((f) => f.rule)),
        officialRejects: officiallyRejected(result),
        oursRejects: !read.ok || judged!.verdict === 'invalid',
        refused: read.ok ? null : `${read.code}: ${read.message}`,
      });
    }
  }, 600_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const missedOf = () => compared.filter((c) => [...c.official].some((id) => !c.ours.has(id)));
  const overruledOf = () => compared.filter((c) => !c.officialRejects && c.oursRejects);

  it(`rejects, with the same rule ids, every document the official rules reject for a business rule (examples and ${MUTATIONS} mutations)`, () => {
    expect(mutationCount).toBeGreaterThanOrEqual(500);
    const missed = missedOf().map(
      (c) =>
        `${c.name} (${c.description}): official ${[...c.official].join(' ')}, ours ${[...c.ours].join(' ') || '—'}`,
    );
    expect(missed).toEqual([]);
  });

  it('rejects no document the official rules accept', () => {
    const overruled = overruledOf().map(
      (c) => `${c.name} (${c.description}): ours ${[...c.ours].join(' ') || c.refused}`,
    );
    expect(overruled).toEqual([]);
  });

  it('reports the figures', () => {
    const ids = new Set(compared.flatMap((c) => [...c.official, ...c.ours]));
    const extra = compared.filter((c) => [...c.ours].some((id) => !c.official.has(id)));
    const rejectedBoth = compared.filter((c) => c.officialRejects && c.oursRejects).length;
    console.warn(
      `official agreement: ${compared.length} documents (${compared.length - mutationCount} examples, ${mutationCount} mutations, seed ${SEED}); ` +
        `${compared.filter((c) => c.official.size > 0).length} rejected by official BR rules, ${rejectedBoth} rejected by both; ` +
        `${ids.size} BR rule ids compared; disagreements ${missedOf().length + overruledOf().length}; extra BR ids of ours on ${extra.length} documents` +
        (extra.length
          ? `: ${extra
              .slice(0, 40)
              .map((c) => `${c.name} (${c.description}) +${[...c.ours].filter((id) => !c.official.has(id)).join(',')}`)
              .join('; ')}`
          : ''),
    );
    expect(compared.length).toBeGreaterThan(mutationCount);
  });
});
