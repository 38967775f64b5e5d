import QRCode from 'qrcode';
import { Decimal } from '../../money/decimal.js';
import type { DocumentView } from '../model.js';

// The EPC QR code ("GiroCode", EPC069-12 version 002) that banking apps read to prefill a SEPA
// credit transfer: only for euro amounts to pay by credit transfer to an IBAN. The amount is
// the one the page asks for (the payable of an issued invoice, the open balance on a status
// copy), never more; a creditor reference (ISO 11649, RF…) goes in the structured field.

const MIN_AMOUNT = new Decimal('0.01');
const MAX_AMOUNT = new Decimal('999999999.99');

/** The EPC069-12 payload for paying `amount`, or null when it cannot be paid by a euro credit transfer. */
export function epcPayload(view: DocumentView, amount: string = view.totals.payable): string | null {
  const means = view.paymentMeans;
  const account = means?.creditTransfer;
  if (!means || !account || view.currency.code !== 'EUR' || view.typeCode !== '380' || view.draft || view.test)
    return null;
  const iban = account.accountId.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return null;
  if (new Decimal(amount).lessThan(MIN_AMOUNT) || new Decimal(amount).greaterThan(MAX_AMOUNT)) return null;
  const name = (account.accountName ?? view.seller.name).slice(0, 70);
  const reference = means.remittanceInformation ?? view.number;
  const structured = /^RF\d{2}[A-Z0-9]{1,21}$/.test(reference) ? reference : '';
  const remittance = structured ? '' : reference.slice(0, 140);
  const fields = [
    'BCD',
    '002',
    '1',
    'SCT',
    account.serviceProviderId ?? '',
    name,
    iban,
    `EUR${amount}`,
    '',
    structured,
    remittance,
  ];
  // The last field that has a value ends the payload (EPC069-12: no line break after it).
  while (fields.at(-1) === '') fields.pop();
  return fields.join('\n');
}

/** The QR code's modules (true = dark), error correction M as EPC069-12 requires. */
export function qrModules(payload: string): { size: number; dark: (x: number, y: number) => boolean } {
  const qr = QRCode.create(payload, { errorCorrectionLevel: 'M' });
  const { size, data } = qr.modules;
  return { size, dark: (x, y) => data[y * size + x] === 1 };
}

/**
 * The GiroCode as an SVG for a web page (a quiet zone of four modules, one path, no styles), or
 * null when the document cannot be paid by it: the payload and the modules are the PDF's.
 */
export function girocodeSvg(view: DocumentView, amount: string, label: string): string | null {
  const payload = epcPayload(view, amount);
  if (payload === null) return null;
  const qr = qrModules(payload);
  const quiet = 4;
  const side = qr.size + 2 * quiet;
  let path = '';
  for (let row = 0; row < qr.size; row++) {
    for (let col = 0; col < qr.size;) {
      if (!qr.dark(col, row)) {
        col++;
        continue;
      }
      const start = col;
      while (col < qr.size && qr.dark(col, row)) col++;
      path += `M${start + quiet} ${row + quiet}h${col - start}v1h${start - col}z`;
    }
  }
  const title = label.replace(/[<>&"]/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" width="200" height="200" role="img" aria-label="${title}" shape-rendering="crispEdges"><title>${title}</title><rect width="${side}" height="${side}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}
