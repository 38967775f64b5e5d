// What both peers (peer-express.mjs on PostgreSQL, peer-express-sqlite.mjs) do alike: the Express
// app with its envelope and request id, and an invoice's lines priced with decimal.js (VAT rounded
// once per rate) and answered as JSON.
import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import express from 'express';

/** An error answer in the envelope. */
export const fail = (res, status, code, message) =>
  res.status(status).json({ success: false, error: { code, message }, requestId: res.locals.requestId });

/** Express 5 with express.json and a request id on every answer. */
export function peerApp() {
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.use((req, res, next) => {
    res.locals.requestId = `req_${randomUUID()}`;
    res.set('x-request-id', res.locals.requestId);
    next();
  });
  return app;
}

/** A POST /invoice body read and priced, or null once a 400 has been answered. */
export function readInvoice(req, res) {
  const { organizationId, buyerReference, lines, status } = req.body ?? {};
  if (typeof organizationId !== 'string' || !Array.isArray(lines) || lines.length === 0 || lines.length > 500) {
    fail(res, 400, 'VALIDATION_ERROR', 'organizationId and lines are required.');
    return null;
  }
  const priced = priceLines(lines);
  if (!priced) {
    fail(res, 400, 'VALIDATION_ERROR', 'Each line needs a name and decimal quantity, unitPrice and vatRate.');
    return null;
  }
  return {
    organizationId,
    buyerReference: typeof buyerReference === 'string' ? buyerReference : null,
    draft: status === 'draft',
    ...priced,
  };
}

/** The lines priced, with the invoice's net and VAT; null when a line is not valid. */
export function priceLines(lines) {
  try {
    const parsed = lines.map((l, position) => {
      if (typeof l?.name !== 'string' || l.name === '') throw new Error('name');
      const quantity = new Decimal(l.quantity);
      const unitPrice = new Decimal(l.unitPrice);
      const discount = new Decimal(l.discountPercent ?? 0);
      return {
        position,
        name: l.name,
        quantity: quantity.toString(),
        unit_price: unitPrice.toString(),
        vat_rate: new Decimal(l.vatRate).toString(),
        net: quantity.mul(unitPrice).mul(new Decimal(100).minus(discount)).div(100).toDecimalPlaces(2).toFixed(2),
      };
    });
    const byRate = new Map();
    for (const l of parsed) byRate.set(l.vat_rate, (byRate.get(l.vat_rate) ?? new Decimal(0)).plus(l.net));
    let net = new Decimal(0);
    let tax = new Decimal(0);
    for (const [rate, sum] of byRate) {
      net = net.plus(sum);
      tax = tax.plus(sum.mul(rate).div(100).toDecimalPlaces(2));
    }
    return { parsed, net: net.toFixed(2), tax: tax.toFixed(2), gross: net.plus(tax).toFixed(2) };
  } catch {
    return null;
  }
}

/** An invoice row with its `lines` (an array, or their JSON text) as the peers answer it. */
export const invoiceJson = (row) => ({
  id: row.id,
  organizationId: row.organization_id,
  status: row.status,
  number: row.number === null ? null : `INV-${row.number}`,
  buyerReference: row.buyer_reference,
  totals: { net: String(row.net), tax: String(row.tax), gross: String(row.gross) },
  lines: (typeof row.lines === 'string' ? JSON.parse(row.lines) : row.lines).map((l) => ({
    name: l.name,
    quantity: String(l.quantity),
    unitPrice: String(l.unit_price),
    vatRate: String(l.vat_rate),
    net: String(l.net),
  })),
  createdAt: row.created_at,
  issuedAt: row.issued_at,
});
