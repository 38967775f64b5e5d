import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import { woffToSfnt } from './woff.js';

// IBM Plex Sans from its npm package (OFL-1.1): PDF/A embeds every font, and the service
// installs with npm only, so no system font is ever used. Each face is read, unwrapped and
// parsed once per process; pdfkit subsets it into each document. Shaping a word (OpenType
// features, kerning) costs more than everything else in a PDF, and invoices repeat their words,
// so shaped words are kept across documents too, as are decoded glyph outlines.

export type FontFace = 'regular' | 'bold';

const FILES: Record<FontFace, string> = {
  regular: '@ibm/plex-sans/fonts/complete/woff/IBMPlexSans-Regular.woff',
  bold: '@ibm/plex-sans/fonts/complete/woff/IBMPlexSans-SemiBold.woff',
};
/** Shaped words kept per face; the cache starts over when full, which bounds its memory. */
const MAX_SHAPED_WORDS = 20_000;

const require = createRequire(import.meta.url);
const loaded = new Map<FontFace, fontkit.Font>();

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

function withShapingCache(font: fontkit.Font): fontkit.Font {
  const shaped = new Map<string, { glyphs: Glyph[]; positions: Position[] }>();
  const layout = (text: string, features?: unknown) => {
    if (features !== undefined && features !== null) return font.layout(text, features as string[]);
    let run = shaped.get(text);
    if (!run) {
      const fresh = font.layout(text);
      run = { glyphs: fresh.glyphs, positions: fresh.positions.map((p) => ({ xAdvance: p.xAdvance, yAdvance: p.yAdvance, xOffset: p.xOffset, yOffset: p.yOffset })) };
      if (shaped.size >= MAX_SHAPED_WORDS) shaped.clear();
      shaped.set(text, run);
    }
    return new ShapedRun(run.glyphs, run.positions.map((p) => ({ ...p })));
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

export function font(face: FontFace): fontkit.Font {
  let parsed = loaded.get(face);
  if (!parsed) {
    const created = fontkit.create(woffToSfnt(readFileSync(require.resolve(FILES[face]))));
    if (!('layout' in created)) throw new Error(`${FILES[face]} is a font collection, not a font`);
    parsed = withShapingCache(created);
    loaded.set(face, parsed);
  }
  return parsed;
}
