import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import { woffToSfnt } from './woff.js';

// The fonts the PDF draws with, all from npm packages (PDF/A embeds every font, and the service
// installs with npm only, so no system font is ever used), each subset into each document:
//
//   IBM Plex Sans                 Latin, Greek, Cyrillic (and the document's own words)
//   IBM Plex Sans Arabic, Hebrew  right-to-left scripts, in the same design
//   Noto Sans SC (Fontsource)     Han ideographs (simplified and traditional), kana, CJK punctuation
//   Nanum Gothic (Fontsource)     Hangul
//   Noto Emoji (Fontsource)       emoji, in outline
//
// Fontsource ships a font as slices by Unicode range (unicode.json names each slice's ranges);
// a slice is read, unwrapped and parsed only when a text needs one of its characters, then kept
// for the process. Shaping a word (OpenType features, kerning) costs more than everything else
// in a PDF, and invoices repeat their words, so shaped words are kept across documents too, as
// are decoded glyph outlines. What no font covers is replaced (text-layout.ts), never drawn as
// .notdef.

export type FontFace = 'regular' | 'bold';

/** A font as the layout uses it: a name unique per file (to register with pdfkit) and the font. */
export interface LoadedFont {
  name: string;
  font: fontkit.Font;
  /** Right-to-left script: its words are drawn one by one, in visual order. */
  rtl: boolean;
  /** The ascender per 1000 units of size (pdfkit's measure). */
  ascender: number;
  unitsPerEm: number;
}

interface WholeFamily {
  kind: 'whole';
  files: Record<FontFace, string>;
  rtl?: boolean;
}

interface SlicedFamily {
  kind: 'sliced';
  /** The package folder; its unicode.json lists the slices. */
  package: string;
  /** The file of a slice: `${prefix}-${slice}-${weight}-normal.woff`. */
  prefix: string;
  weights: Record<FontFace, number>;
}

type Family = WholeFamily | SlicedFamily;

/** In the order they are asked for a character: the first that has its glyph draws it. */
const FAMILIES: Family[] = [
  {
    kind: 'whole',
    files: {
      regular: '@ibm/plex-sans/fonts/complete/woff/IBMPlexSans-Regular.woff',
      bold: '@ibm/plex-sans/fonts/complete/woff/IBMPlexSans-SemiBold.woff',
    },
  },
  {
    kind: 'whole',
    rtl: true,
    files: {
      regular: '@ibm/plex-sans-arabic/fonts/complete/woff/IBMPlexSansArabic-Regular.woff',
      bold: '@ibm/plex-sans-arabic/fonts/complete/woff/IBMPlexSansArabic-SemiBold.woff',
    },
  },
  {
    kind: 'whole',
    rtl: true,
    files: {
      regular: '@ibm/plex-sans-hebrew/fonts/complete/woff/IBMPlexSansHebrew-Regular.woff',
      bold: '@ibm/plex-sans-hebrew/fonts/complete/woff/IBMPlexSansHebrew-SemiBold.woff',
    },
  },
  { kind: 'sliced', package: '@fontsource/noto-sans-sc', prefix: 'noto-sans-sc', weights: { regular: 400, bold: 600 } },
  { kind: 'sliced', package: '@fontsource/nanum-gothic', prefix: 'nanum-gothic', weights: { regular: 400, bold: 700 } },
  { kind: 'sliced', package: '@fontsource/noto-emoji', prefix: 'noto-emoji', weights: { regular: 400, bold: 400 } },
];

/** Shaped words kept per font; the cache starts over when full, which bounds its memory. */
const MAX_SHAPED_WORDS = 20_000;

const require = createRequire(import.meta.url);
const loaded = new Map<string, LoadedFont>();

interface Position {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}
type Glyph = fontkit.Glyph;

/** A shaped word as pdfkit uses it: it scales the positions in place, so each caller gets copies. */
class ShapedRun {
  constructor(
    readonly glyphs: Glyph[],
    readonly positions: Position[],
  ) {}
  get advanceWidth(): number {
    let width = 0;
    for (const position of this.positions) width += position.xAdvance;
    return width;
  }
}

/**
 * A glyph of a right-to-left run that stands for several characters (an Arabic lam-alef) maps
 * back to them in reverse: the run is stored in visual order, and readers (poppler's
 * pdftotext, pdf.js) turn a right-to-left run's characters around to get the logical text,
 * those of a ligature too.
 */
function visualOrder(glyphs: Glyph[]): Glyph[] {
  return glyphs.map((glyph) =>
    glyph.codePoints.length > 1
      ? (Object.create(glyph, { codePoints: { value: [...glyph.codePoints].reverse() } }) as Glyph)
      : glyph,
  );
}

function withShapingCache(font: fontkit.Font, rtl: boolean): fontkit.Font {
  const shaped = new Map<string, { glyphs: Glyph[]; positions: Position[] }>();
  const layout = (text: string, features?: unknown) => {
    if (features !== undefined && features !== null) return font.layout(text, features as string[]);
    let run = shaped.get(text);
    if (!run) {
      const fresh = font.layout(text);
      run = {
        glyphs: rtl ? visualOrder(fresh.glyphs) : fresh.glyphs,
        positions: fresh.positions.map((p) => ({
          xAdvance: p.xAdvance,
          yAdvance: p.yAdvance,
          xOffset: p.xOffset,
          yOffset: p.yOffset,
        })),
      };
      if (shaped.size >= MAX_SHAPED_WORDS) shaped.clear();
      shaped.set(text, run);
    }
    return new ShapedRun(
      run.glyphs,
      run.positions.map((p) => ({ ...p })),
    );
  };
  // Subsetting (each PDF embeds the glyphs it uses) decodes every used glyph's outline again, to
  // learn whether it is composite: a third of a PDF's time. A static font's outlines never
  // change, so each glyph decodes once per process.
  const decodedOnce = new WeakSet<object>();
  const wrapper: fontkit.Font = Object.create(font, {
    layout: { value: layout },
    getGlyph: {
      value: (id: number, characters?: number[]) => {
        const glyph = font.getGlyph.call(wrapper, id, characters) as (Glyph & { _decode?: () => unknown }) | null;
        if (glyph && typeof glyph._decode === 'function' && !decodedOnce.has(glyph)) {
          decodedOnce.add(glyph);
          const decode = glyph._decode.bind(glyph);
          let decoded: { value: unknown } | undefined;
          glyph._decode = () => (decoded ??= { value: decode() }).value;
        }
        return glyph;
      },
    },
  });
  // Everything else (metrics, subsetting) is the parsed font's own.
  return wrapper;
}

function load(file: string, rtl: boolean): LoadedFont {
  let font = loaded.get(file);
  if (!font) {
    const created = fontkit.create(woffToSfnt(readFileSync(require.resolve(file))));
    if (!('layout' in created)) throw new Error(`${file} is a font collection, not a font`);
    const scale = 1000 / created.unitsPerEm;
    font = {
      name: file.slice(file.lastIndexOf('/') + 1).replace(/\.woff$/, ''),
      font: withShapingCache(created, rtl),
      rtl,
      ascender: created.ascent * scale,
      unitsPerEm: created.unitsPerEm,
    };
    loaded.set(file, font);
  }
  return font;
}

/** The main font: the document's own words, numbers and amounts. */
export function mainFont(face: FontFace): LoadedFont {
  return load((FAMILIES[0] as WholeFamily).files[face], false);
}

/** The slices of a Fontsource package: sorted ranges, each naming its slice. */
type Slices = { from: number; to: number; slice: string }[];
const slicesOf = new Map<string, Slices>();

function slices(family: SlicedFamily): Slices {
  let list = slicesOf.get(family.package);
  if (!list) {
    const table = JSON.parse(readFileSync(require.resolve(`${family.package}/unicode.json`), 'utf8')) as Record<
      string,
      string
    >;
    list = [];
    for (const [key, ranges] of Object.entries(table)) {
      const slice = key.replace(/^\[(\d+)\]$/, '$1');
      for (const range of ranges.split(',')) {
        const [from, to] = range.trim().replace(/^U\+/i, '').split('-');
        list.push({ from: parseInt(from!, 16), to: parseInt(to ?? from!, 16), slice });
      }
    }
    list.sort((a, b) => a.from - b.from);
    slicesOf.set(family.package, list);
  }
  return list;
}

/** The slices whose ranges hold the code point (ranges of different slices may overlap). */
function slicesFor(family: SlicedFamily, codePoint: number): string[] {
  const list = slices(family);
  const found: string[] = [];
  for (const range of list) {
    if (range.from > codePoint) break;
    if (range.to >= codePoint && !found.includes(range.slice)) found.push(range.slice);
  }
  return found;
}

const chosen = new Map<string, LoadedFont | null>();

/** The first font that has a glyph for the code point, or null when none has. */
export function fontFor(codePoint: number, face: FontFace): LoadedFont | null {
  const key = `${face}:${codePoint}`;
  let font = chosen.get(key);
  if (font === undefined) {
    font = null;
    for (const family of FAMILIES) {
      const candidates =
        family.kind === 'whole'
          ? [load(family.files[face], family.rtl ?? false)]
          : slicesFor(family, codePoint).map((slice) =>
              load(`${family.package}/files/${family.prefix}-${slice}-${family.weights[face]}-normal.woff`, false),
            );
      font = candidates.find((candidate) => candidate.font.hasGlyphForCodePoint(codePoint)) ?? null;
      if (font) break;
    }
    chosen.set(key, font);
  }
  return font;
}
