import { Decimal } from '../money/decimal.js';

// The reference a buyer quotes with a transfer (EN 16931 BT-83, the remittance information).
// Belgian banks read a structured communication (+++123/4567/89012+++: ten digits and their
// modulo-97 check); elsewhere the invoice number is quoted, or an ISO 11649 creditor reference
// (RF + two check digits + up to 21 letters and digits) when the invoice gives one.

/** +++ddd/dddd/ddddd+++ from the digits of the document number (its last ten, zero-padded). */
export function belgianStructuredCommunication(number: string): string {
  const digits = number.replace(/\D/g, '').slice(-10).padStart(10, '0');
  const check = Number(BigInt(digits) % 97n) || 97;
  const all = `${digits}${String(check).padStart(2, '0')}`;
  return `+++${all.slice(0, 3)}/${all.slice(3, 7)}/${all.slice(7)}+++`;
}

/** ISO 7064 MOD 97-10 over letters (A=10 … Z=35) and digits, as IBANs and creditor references use it. */
function mod97(text: string): number {
  const numeric = text.toUpperCase().replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  return Number(new Decimal(numeric).mod(97).toNumber());
}

/** An ISO 11649 creditor reference, without spaces and in capitals, or null when the text is none. */
export function creditorReference(text: string): string | null {
  const reference = text.replace(/\s+/g, '').toUpperCase();
  if (!/^RF\d{2}[A-Z0-9]{1,21}$/.test(reference)) return null;
  return mod97(`${reference.slice(4)}${reference.slice(0, 4)}`) === 1 ? reference : null;
}

/** The reference to quote for a document of this seller country, given a creditor reference or not. */
export function paymentReference(number: string, sellerCountry: string | null, given: string | null): string {
  if (given) return given;
  if (sellerCountry === 'BE') return belgianStructuredCommunication(number);
  return number;
}
