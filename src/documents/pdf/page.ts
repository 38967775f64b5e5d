import type PDFDocument from 'pdfkit';

// The page geometry and the few drawing habits every section shares.

export type Pdf = InstanceType<typeof PDFDocument>;

export const PAGE = { width: 595.28, height: 841.89, margin: 50, footer: 40 } as const;
export const LEFT = PAGE.margin;
export const RIGHT = PAGE.width - PAGE.margin;
export const WIDTH = RIGHT - LEFT;
/** The lowest y a section may draw at before the footer. */
export const BOTTOM = PAGE.height - PAGE.margin - PAGE.footer;

export const COLORS = { text: '#1a1a1a', muted: '#666666', rule: '#c8c8c8', accent: '#1f4e79', mark: '#c0392b' } as const;

export interface TextOptions {
  width?: number;
  align?: 'left' | 'right' | 'center';
  bold?: boolean;
  size?: number;
  color?: string;
}

/** Writes text at (x, y) without moving to a new page; returns the height it took. */
export function write(doc: Pdf, text: string, x: number, y: number, options: TextOptions = {}): number {
  doc.font(options.bold ? 'bold' : 'regular').fontSize(options.size ?? 9).fillColor(options.color ?? COLORS.text);
  // pdfkit leaves doc.y below the text it wrote: that is its height, without laying it out twice.
  doc.text(text, x, y, { width: options.width ?? WIDTH, align: options.align ?? 'left', lineBreak: true });
  return doc.y - y;
}

/** The height text would take, in the font and size it would be written in. */
export function heightOf(doc: Pdf, text: string, width: number, options: TextOptions = {}): number {
  doc.font(options.bold ? 'bold' : 'regular').fontSize(options.size ?? 9);
  return doc.heightOfString(text, { width });
}

export function rule(doc: Pdf, y: number, color: string = COLORS.rule): void {
  doc.moveTo(LEFT, y).lineTo(RIGHT, y).lineWidth(0.5).strokeColor(color).stroke();
}

/** Moves to a new page when `height` does not fit below y; returns the y to draw at. */
export function room(doc: Pdf, y: number, height: number, onNewPage?: (y: number) => number): number {
  if (y + height <= BOTTOM) return y;
  doc.addPage();
  const top = PAGE.margin;
  return onNewPage ? onNewPage(top) : top;
}
