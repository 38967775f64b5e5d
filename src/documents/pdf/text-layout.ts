import bidiModule, { type Bidi } from 'bidi-js';
import { cleanText } from '../clean-text.js';
import { fontFor, mainFont, type FontFace, type LoadedFont } from './fonts.js';
import type { Pdf } from './page.js';

// Every text of the PDF is laid out here, not by pdfkit: pdfkit draws with one font at a time
// and knows nothing of right-to-left scripts. A text is cut into grapheme clusters, each drawn
// by the first font that has it (fonts.ts), with its Unicode bidi level (UAX #9, by bidi-js);
// words are put on lines of the given width (a CJK ideograph or an emoji is a word of its own),
// and each line's runs are put in visual order (rule L2) and drawn one by one at their place.
// A cluster that no font covers is drawn as its code points ("[U+0E01]"), never as .notdef.

// bidi-js is a CommonJS module whose export is its factory; its types describe an ES default.
const bidiFactory = (
  typeof bidiModule === 'function' ? bidiModule : (bidiModule as { default: () => Bidi }).default
) as () => Bidi;
const bidi = bidiFactory();
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Text that only the main font draws, left to right: laid out without segmenting. */
const PLAIN = /^[\u0020-\u007e\u00a0-\u017f\u2010-\u2026\u20ac\u2212]*$/;
const RTL_CHARACTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]|\ud802[\udc00-\udfff]|\ud83a[\udc00-\udfff]/;
/** Characters that may be left out when the font of their cluster lacks them: they draw nothing. */
// eslint-disable-next-line no-misleading-character-class -- joiners and variation selectors are listed one by one, on purpose
const INVISIBLE = /[\u200b-\u200f\u2060-\u2064\ufe00-\ufe0f]|\udb40[\udc00-\udfff]/g;
/** Clusters after and before which a line may break without a space: ideographs, kana, Hangul, emoji. */
const BREAKS_ANYWHERE =
  /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]|[\ud83c-\ud83e\ud840-\ud87f][\udc00-\udfff]/;

export interface TextStyle {
  size: number;
  bold?: boolean;
}

interface Segment {
  text: string;
  font: LoadedFont;
  level: number;
  width: number;
}

/** A word with the spaces after it: the unit lines are filled with. */
interface Word {
  segments: Segment[];
  width: number;
  /** The width of its trailing spaces, which do not count at the end of a line. */
  spaceWidth: number;
}

export interface LaidLine {
  /** In visual order, left to right. */
  segments: Segment[];
  width: number;
}

/** Widths per font of the words measured so far (in font units); starts over when full. */
const widths = new WeakMap<LoadedFont, Map<string, number>>();
const MAX_WIDTHS = 50_000;

function unitWidth(font: LoadedFont, word: string): number {
  let known = widths.get(font);
  if (!known) widths.set(font, (known = new Map()));
  let width = known.get(word);
  if (width === undefined) {
    width = font.font.layout(word).advanceWidth;
    if (known.size >= MAX_WIDTHS) known.clear();
    known.set(word, width);
  }
  return width;
}

/** The width of text in points: word by word (shaping never crosses a space), each word measured once per process. */
function measure(font: LoadedFont, text: string, size: number): number {
  let units = 0;
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || text.charCodeAt(i) === 32) {
      if (i > start) units += unitWidth(font, text.slice(start, i));
      if (i < text.length) units += unitWidth(font, ' ');
      start = i + 1;
    }
  }
  return (units * size) / font.unitsPerEm;
}

/** The height of one line of text in this size: the main font's, for every line. */
export function lineHeight(size: number): number {
  const font = mainFont('regular').font;
  return ((font.ascent - font.descent + font.lineGap) * size) / font.unitsPerEm;
}

const codePointsOf = (text: string) =>
  [...text].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' ');

/** The clusters of a paragraph, each with its font (null: none has it) and bidi level. */
function clustersOf(paragraph: string, face: FontFace): { text: string; font: LoadedFont | null; level: number }[] {
  const levels = RTL_CHARACTER.test(paragraph) ? bidi.getEmbeddingLevels(paragraph, 'auto').levels : null;
  const clusters: { text: string; font: LoadedFont | null; level: number }[] = [];
  let previous: LoadedFont | null = null;
  for (const { segment, index } of graphemes.segment(paragraph)) {
    const codePoints = [...segment].map((c) => c.codePointAt(0)!);
    const level = levels ? levels[index]! : 0;
    // Spaces and punctuation in right-to-left text stay in its font, so that its words and the
    // spaces between them are one run; elsewhere they are the main font's.
    const neutral: boolean =
      /^[\s\p{P}\p{S}\p{N}]$/u.test(segment) &&
      previous !== null &&
      previous.rtl &&
      previous.font.hasGlyphForCodePoint(codePoints[0]!);
    let font: LoadedFont | null = neutral ? previous : fontFor(codePoints[0]!, face);
    let text = segment;
    if (font && !codePoints.every((cp) => font!.font.hasGlyphForCodePoint(cp))) {
      text = segment.replace(INVISIBLE, '');
      if (![...text].every((c) => font!.font.hasGlyphForCodePoint(c.codePointAt(0)!))) font = null;
    }
    clusters.push({ text, font, level });
    previous = font;
  }
  return clusters;
}

/** The words of a paragraph: runs of clusters up to and with the spaces after them. */
function wordsOf(paragraph: string, style: TextStyle): Word[] {
  const face: FontFace = style.bold ? 'bold' : 'regular';
  const main = mainFont(face);
  if (PLAIN.test(paragraph)) {
    return (paragraph.match(/[^ ]* */g) ?? [])
      .filter((w) => w !== '')
      .map((text) => {
        const word = text.trimEnd();
        const width = measure(main, text, style.size);
        const spaceWidth = width - (word === text ? width : measure(main, word, style.size));
        return { segments: [{ text, font: main, level: 0, width }], width: width - spaceWidth, spaceWidth };
      });
  }
  const words: Word[] = [];
  let current: Word | null = null;
  let afterSpace = false;
  let afterAlone = false;
  for (const cluster of clustersOf(paragraph, face)) {
    const space = cluster.text === ' ';
    const alone = BREAKS_ANYWHERE.test(cluster.text);
    if (!current || (!space && (afterSpace || alone || afterAlone))) {
      current = { segments: [], width: 0, spaceWidth: 0 };
      words.push(current);
      afterSpace = false;
    }
    if (space) afterSpace = true;
    else afterAlone = alone;
    // A cluster no font has is written as its code points, left to right, in the main font.
    const font = cluster.font ?? main;
    const text = cluster.font ? cluster.text : `[${codePointsOf(cluster.text)}]`;
    const level = cluster.font ? cluster.level : cluster.level + (cluster.level % 2);
    const last = current.segments.at(-1);
    if (last && last.font === font && last.level === level) last.text += text;
    else current.segments.push({ text, font, level, width: 0 });
  }
  for (const word of words) {
    let width = 0;
    for (const segment of word.segments) {
      segment.width = measure(segment.font, segment.text, style.size);
      width += segment.width;
    }
    const last = word.segments.at(-1)!;
    const trimmed = last.text.trimEnd();
    word.spaceWidth =
      trimmed === last.text ? 0 : last.width - (trimmed === '' ? 0 : measure(last.font, trimmed, style.size));
    word.width = width - word.spaceWidth;
  }
  return words;
}

/** A word wider than a line, cut into pieces that fit, cluster by cluster. */
function cutWord(word: Word, maxWidth: number, style: TextStyle): Word[] {
  const pieces: Word[] = [];
  let piece: Word = { segments: [], width: 0, spaceWidth: 0 };
  for (const segment of word.segments) {
    for (const { segment: cluster } of graphemes.segment(segment.text)) {
      const width = measure(segment.font, cluster, style.size);
      if (piece.width + width > maxWidth && piece.segments.length > 0) {
        pieces.push(piece);
        piece = { segments: [], width: 0, spaceWidth: 0 };
      }
      const last = piece.segments.at(-1);
      if (last && last.font === segment.font && last.level === segment.level) {
        last.text += cluster;
        last.width += width;
      } else {
        piece.segments.push({ text: cluster, font: segment.font, level: segment.level, width });
      }
      piece.width += width;
    }
  }
  if (piece.segments.length > 0) pieces.push(piece);
  return pieces;
}

/** Rule L2 of UAX #9: from the highest level down to the lowest odd one, reverse every run at that level or above. */
function visualOrder(segments: Segment[]): Segment[] {
  const order = [...segments];
  const levels = order.map((s) => s.level);
  const highest = Math.max(0, ...levels);
  const lowestOdd = Math.min(...levels.filter((l) => l % 2 === 1), highest + 1);
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < order.length;) {
      if (order[i]!.level < level) {
        i++;
        continue;
      }
      let end = i;
      while (end < order.length && order[end]!.level >= level) end++;
      const reversed = order.slice(i, end).reverse();
      order.splice(i, end - i, ...reversed);
      i = end;
    }
  }
  return order;
}

function lineOf(words: Word[]): LaidLine {
  const segments: Segment[] = [];
  words.forEach((word, index) => {
    for (const segment of word.segments) {
      const last = segments.at(-1);
      if (last && last.font === segment.font && last.level === segment.level) {
        last.text += segment.text;
        last.width += segment.width;
      } else {
        segments.push({ ...segment });
      }
    }
    // The spaces that end a line are not drawn.
    if (index === words.length - 1 && word.spaceWidth > 0) {
      const last = segments.at(-1)!;
      last.text = last.text.trimEnd();
      last.width -= word.spaceWidth;
    }
  });
  const visible = segments.filter((s) => s.text !== '');
  return {
    segments: visualOrder(visible),
    width: words.reduce((sum, w, i) => sum + w.width + (i < words.length - 1 ? w.spaceWidth : 0), 0),
  };
}

/** The lines the text takes at this width (one line, however long, when width is Infinity). */
export function layoutText(text: string, style: TextStyle, width: number): LaidLine[] {
  const cleaned = cleanText(text).replace(/\r\n?/g, '\n').replace(/\t/g, ' ');
  if (cleaned === '') return [];
  const lines: LaidLine[] = [];
  for (const paragraph of cleaned.split('\n')) {
    let words: Word[] = [];
    let used = 0;
    for (const word of wordsOf(paragraph, style)) {
      const pieces = word.width > width ? cutWord(word, width, style) : [word];
      for (const piece of pieces) {
        if (words.length > 0 && used + piece.width > width) {
          lines.push(lineOf(words));
          words = [];
          used = 0;
        }
        words.push(piece);
        used += piece.width + piece.spaceWidth;
      }
    }
    lines.push(lineOf(words));
  }
  return lines;
}

const registered = new WeakMap<Pdf, Set<string>>();

function use(doc: Pdf, font: LoadedFont, size: number): void {
  let names = registered.get(doc);
  if (!names) registered.set(doc, (names = new Set()));
  if (!names.has(font.name)) {
    doc.registerFont(font.name, font.font as unknown as string);
    names.add(font.name);
  }
  doc.font(font.name).fontSize(size);
}

export interface DrawOptions extends TextStyle {
  width: number;
  align: 'left' | 'right' | 'center';
  color: string;
}

/** Draws laid-out lines from (x, y), the top of the first line; returns the height they took. */
export function drawLines(doc: Pdf, lines: LaidLine[], x: number, y: number, options: DrawOptions): number {
  const step = lineHeight(options.size);
  const main = mainFont(options.bold ? 'bold' : 'regular');
  doc.fillColor(options.color);
  lines.forEach((line, index) => {
    const top = y + index * step;
    let left =
      options.align === 'right'
        ? x + options.width - line.width
        : options.align === 'center'
          ? x + (options.width - line.width) / 2
          : x;
    for (const segment of line.segments) {
      // Baselines line up whatever the font: each is placed by its own ascender.
      const segmentTop = top + ((main.ascender - segment.font.ascender) * options.size) / 1000;
      use(doc, segment.font, options.size);
      if (segment.level % 2 === 1 && segment.font.rtl) {
        drawRightToLeft(doc, segment, left, segmentTop, options.size);
      } else {
        const text = segment.level % 2 === 1 ? [...segment.text].reverse().join('') : segment.text;
        doc.text(text, left, segmentTop, { lineBreak: false });
      }
      left += segment.width;
    }
  });
  return lines.length * step;
}

/**
 * A right-to-left run, word by word from its right end: the font shapes each word and puts its
 * glyphs in visual order, and readers find the words where they are.
 */
function drawRightToLeft(doc: Pdf, segment: Segment, left: number, top: number, size: number): void {
  let right = left + segment.width;
  for (const part of segment.text.split(/( +)/)) {
    if (part === '') continue;
    const width = measure(segment.font, part, size);
    right -= width;
    if (part.trim() !== '') doc.text(part, right, top, { lineBreak: false });
  }
}
