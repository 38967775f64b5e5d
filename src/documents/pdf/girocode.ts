import QRCode from 'qrcode';
import { Decimal } from '../../money/decimal.js';
import type { DocumentView } from '../model.js';

// The EPC QR code ("GiroCode", EPC069-12 version 002) that banking apps read to prefill a SEPA
// credit transfer: only for euro amounts to pay by credit transfer to an IBAN.

const MIN_AMOUNT = new Decimal('0.01');
const MAX_AMOUNT = new Decimal('999999999.99');

/** The EPC069-12 payload, or null when the document is not paid by a euro credit transfer. */
export function epcPayload(view: DocumentView): string | null {
  const means = view.paymentMeans;
  const account = means?.creditTransfer;
  if (!means || !account || view.currency.code !== 'EUR' || view.typeCode !== '380') return null;
  const iban = account.accountId.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return null;
  const amount = view.totals.payable;
  if (new Decimal(amount).lessThan(MIN_AMOUNT) || new Decimal(amount).greaterThan(MAX_AMOUNT)) return null;
  const name = (account.accountName ?? view.seller.name).slice(0, 70);
  const remittance = (means.remittanceInformation ?? view.number).slice(0, 140);
  return ['BCD', '002', '1', 'SCT', account.serviceProviderId ?? '', name, iban, `EUR${amount}`, '', '', remittance].join('\n');
}

/** The QR code's modules (true = dark), error correction M as EPC069-12 requires. */
export function qrModules(payload: string): { size: number; dark: (x: number, y: number) => boolean } {
  const qr = QRCode.create(payload, { errorCorrectionLevel: 'M' });
  const { size, data } = qr.modules;
  return { size, dark: (x, y) => data[y * size + x] === 1 };
}
