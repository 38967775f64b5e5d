// The five lines of the bench's invoice (`run.mjs`, `wal.mjs`): two VAT rates, a discount, an
// export line, quantities and prices as strings and as numbers.
export const INVOICE_LINES = [
  { name: 'Consulting', quantity: '7.5', unitPrice: '120.00', vatRate: '19' },
  { name: 'Travel', quantity: 1, unitPrice: '245.30', vatRate: '19' },
  { name: 'Books', quantity: 3, unitPrice: '19.99', vatRate: '7' },
  { name: 'Licence', quantity: '12', unitPrice: '9.95', discountPercent: '10', vatRate: '19' },
  { name: 'Export service', quantity: 1, unitPrice: '500', vatRate: '0', vatCategory: 'G' },
];
