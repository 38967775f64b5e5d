import type PDFDocument from 'pdfkit';
import { drawLines, layoutText, lineHeight as lineHeightOf } from './text-layout.js';

// The page geometry and the few drawing habits every section shares.

export type Pdf = InstanceType<typeof PDFDocument>;

export const PAGE = { width: 595.28, height: 841.89, margin: 50, footer: 40 } as const;
export const LEFT = PAGE.margin;
export const RIGHT = PAGE.width - PAGE.margin;
export const WIDTH = RIGHT - LEFT;
/** The lowest y a section may draw at before the footer. */
export const BOTTOM = PAGE.height - PAGE.margin - PAGE.footer;
/** Where the content of page 2 and later starts, below the line that names the document. */
export const CONTINUATION_TOP = PAGE.margin + 30;

export const COLORS = {
  text: '#1a1a1a',
  muted: '#666666',
  rule: '#c8c8c8',
  accent: '#1f4e79',
  mark: '#c0392b',
} as const;

export interface TextOptions {
  width?: number;
  align?: 'left' | 'right' | 'center';
  bold?: boolean;
  size?: number;
  color?: string;
}

/** Writes text at (x, y), wrapped to its width, without moving to a new page; returns the height it took. */
export function write(doc: Pdf, text: string, x: number, y: number, options: TextOptions = {}): number {
  const width = options.width ?? WIDTH;
  const style = { size: options.size ?? 9, bold: options.bold ?? false };
  return drawLines(doc, layoutText(text, style, width), x, y, {
    ...style,
    width,
    align: options.align ?? 'left',
    color: options.color ?? COLORS.text,
  });
}

/** The height text would take, in the font and size it would be written in. */
export function heightOf(_doc: Pdf, text: string, width: number, options: TextOptions = {}): number {
  const size = options.size ?? 9;
  return layoutText(text, { size, bold: options.bold ?? false }, width).length * lineHeightOf(size);
}

export function rule(doc: Pdf, y: number, color: string = COLORS.rule): void {
  doc.moveTo(LEFT, y).lineTo(RIGHT, y).lineWidth(0.5).strokeColor(color).stroke();
}

/** Moves to a new page when `height` does not fit below y; returns the y to draw at. */
export function room(doc: Pdf, y: number, height: number, onNewPage?: (y: number) => number): number {
  if (y + height <= BOTTOM) return y;
  doc.addPage();
  return onNewPage ? onNewPage(CONTINUATION_TOP) : CONTINUATION_TOP;
}
