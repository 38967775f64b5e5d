// The examples of README.md and docs/*.md, read as the docs test runs them. The convention (also
// in docs/README.md):
//
// - A ```sh block runs, in bash with `set -eo pipefail`, after the blocks before it in the same
//   file: variables it sets are there for the next block. ```sh no-run opts out (installing,
//   PostgreSQL, anything that needs a browser or a second machine).
// - A ```json block that comes next after a sh block (prose between is fine, another fenced block
//   is not) is that block's shown answer: the last JSON value the block prints must equal it.
// - A line `# → <answer>` inside a sh block is the answer of the commands since the previous such
//   line: JSON is compared as JSON (the last value printed), anything else as trimmed text.
// - Before comparing, ids (`org_<uuid>`, `req_<uuid>`, …), keys, secrets and timestamps are masked
//   on both sides, and a shown value "…" stands for any value.

export interface ShellExample {
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
  /** The json block shown as this block's answer, if any. */
  answer: string | null;
}

export interface FencedBlock {
  line: number;
  info: string;
  code: string;
}

export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^```(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i += 1; i < lines.length && !/^```\s*$/.test(lines[i]!); i += 1) body.push(lines[i]!);
    blocks.push({ line: start + 1, info: open[1]!.trim(), code: body.join('\n') });
  }
  return blocks;
}

/** The runnable sh blocks of a markdown file, in order, each with its shown json answer. */
export function shellExamples(markdown: string): ShellExample[] {
  const blocks = fencedBlocks(markdown);
  const examples: ShellExample[] = [];
  blocks.forEach((block, index) => {
    const words = block.info.split(/\s+/);
    if (words[0] !== 'sh' || words.includes('no-run')) return;
    const next = blocks[index + 1];
    examples.push({ line: block.line, code: block.code, answer: next && next.info === 'json' ? next.code : null });
  });
  return examples;
}

/** Every sh block that opted out, so the test can keep their number small. */
export function optedOut(markdown: string): FencedBlock[] {
  return fencedBlocks(markdown).filter(
    (b) => b.info.split(/\s+/)[0] === 'sh' && b.info.split(/\s+/).includes('no-run'),
  );
}

export const MARK = '\u001e';

/**
 * The script that runs a block: `# → …` lines become markers in the output, so the output can be
 * cut into the answers of the commands before each. Returns the script and the shown answers.
 */
export function instrument(code: string): { script: string; expected: string[] } {
  const expected: string[] = [];
  const lines = code.split('\n').map((line) => {
    const annotation = /^\s*# → (.*)$/.exec(line);
    if (!annotation) return line;
    expected.push(annotation[1]!);
    return `printf '\\n${'\\036'}%s${'\\036'}\\n' ${expected.length - 1}`;
  });
  return { script: lines.join('\n'), expected };
}

/** Cuts a block's stdout at its markers: the output before marker n, then what follows the last. */
export function segments(stdout: string): { marked: string[]; rest: string } {
  const marked: string[] = [];
  let rest = stdout;
  const pattern = new RegExp(`\\n?${MARK}(\\d+)${MARK}\\n`);
  for (let match = pattern.exec(rest); match; match = pattern.exec(rest)) {
    marked[Number(match[1])] = rest.slice(0, match.index);
    rest = rest.slice(match.index + match[0].length);
  }
  return { marked, rest };
}

/** The JSON values in a text of concatenated JSON (curl prints answers without a newline). */
export function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === '{' || c === '[') {
      if (depth === 0) start = i;
      depth += 1;
    } else if (c === '}' || c === ']') {
      depth -= 1;
      if (depth === 0 && start >= 0) {
        try {
          values.push(JSON.parse(text.slice(start, i + 1)));
        } catch {
          // not JSON after all (e.g. brackets in plain text)
        }
        start = -1;
      }
      if (depth < 0) depth = 0;
    }
  }
  return values;
}

const MASKS: [RegExp, string][] = [
  [/\binv_(live|test)_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}\b/g, '<key>'],
  [/\binv_(live|test)_[A-Za-z0-9]{8}\b/g, '<key prefix>'],
  [/\bwhsec_[A-Za-z0-9+/=]{20,}/g, '<secret>'],
  [/\b[a-z]+_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<id>'],
  // a shown id written as `org_…`
  [/\b[a-z]+_…/g, '<id>'],
  [/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b/g, '<time>'],
];

export function mask(text: string): string {
  return MASKS.reduce((masked, [pattern, replacement]) => masked.replace(pattern, replacement), text);
}

function maskValue(value: unknown): unknown {
  if (typeof value === 'string') return mask(value);
  if (Array.isArray(value)) return value.map(maskValue);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskValue(v)]));
  return value;
}

/** The shown value with every "…" replaced by what the real one has there, so a diff shows only real differences. */
function fillWildcards(shown: unknown, actual: unknown): unknown {
  if (shown === '…') return actual;
  if (Array.isArray(shown) && Array.isArray(actual)) return shown.map((item, i) => fillWildcards(item, actual[i]));
  if (shown && typeof shown === 'object' && actual && typeof actual === 'object' && !Array.isArray(actual)) {
    return Object.fromEntries(
      Object.entries(shown).map(([k, v]) => [k, fillWildcards(v, (actual as Record<string, unknown>)[k])]),
    );
  }
  return shown;
}

/**
 * What to compare for one shown answer: both sides masked, as values (JSON) or trimmed text.
 * Returns [shown, actual] ready for toEqual.
 */
export function comparable(shown: string, output: string): [unknown, unknown] {
  let shownJson: unknown;
  try {
    shownJson = JSON.parse(shown);
  } catch {
    return [mask(shown.trim()), mask(output.trim())];
  }
  if (shownJson === null || typeof shownJson !== 'object') return [mask(shown.trim()), mask(output.trim())];
  const values = jsonValues(output);
  if (values.length === 0) return [maskValue(shownJson), mask(output.trim())];
  const actual = maskValue(values[values.length - 1]);
  return [fillWildcards(maskValue(shownJson), actual), actual];
}
