// How fast the PDF renderer is and how much memory it holds: renders the same ten-line invoice
// (with its factur-x.xml and GiroCode) over and over in one or more worker threads.
//
//   npm run build && node scripts/pdf-speed.mjs [seconds=10] [workers=0]
//
// workers=0 renders in the main thread, as the service does; 2 uses both cores.
// Prints PDFs per second and the process's peak RSS (the targets: ≥ 50 PDFs/s on 2 cores,
// ≤ 250 MB RSS).
import { resourceUsage } from 'node:process';
import { pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const dist = (path) => pathToFileURL(new URL(`../dist/${path}`, import.meta.url).pathname).href;

async function work(seconds) {
  const { documentViewFrom, renderPdf } = await import(dist('documents/index.js'));
  const { Decimal } = await import(dist('money/decimal.js'));
  const { calculateInvoice } = await import(dist('money/invoice-calculation.js'));
  // Our arithmetic, then the one view builder, as src/services/document-view.ts does for a stored invoice.
  const buildView = (input) =>
    documentViewFrom(
      input,
      calculateInvoice(
        input.lines,
        { digits: input.currency.minorDigits, pricesIncludeTax: input.pricesIncludeTax },
        { allowances: input.allowances, charges: input.charges },
      ),
    );
  const party = (name, vatId, city) => ({
    name,
    tradingName: null,
    identifier: null,
    legalRegistrationId: null,
    vatId,
    taxRegistrationId: null,
    electronicAddress: { id: vatId, schemeId: '9930' },
    address: { line1: 'Hauptstraße 1', line2: null, city, postalCode: '10115', countryCode: 'DE' },
    contact: { name: 'Erika Mustermann', phone: '+49 30 1234567', email: 'billing@example.com' },
  });
  const view = buildView({
    typeCode: '380',
    number: '2026-00042',
    issueDate: '2026-03-02',
    dueDate: '2026-04-01',
    currency: { code: 'EUR', minorDigits: 2 },
    buyerReference: '04011000-12345-03',
    purchaseOrderReference: 'PO-4711',
    note: null,
    paymentTerms: 'Zahlbar innerhalb von 30 Tagen.',
    deliveryDate: '2026-02-27',
    invoicePeriod: null,
    deliverTo: null,
    precedingInvoice: null,
    seller: party('Muster Software GmbH', 'DE123456789', 'Berlin'),
    buyer: party('Acme Trading GmbH', 'DE811907980', 'München'),
    paymentMeans: {
      code: '58',
      remittanceInformation: null,
      creditTransfer: {
        accountId: 'DE02120300000000202051',
        accountName: 'Muster Software GmbH',
        serviceProviderId: 'BYLADEM1001',
      },
      card: null,
      directDebit: null,
    },
    allowances: [],
    charges: [
      {
        amount: new Decimal('4.90'),
        reason: 'Versand',
        reasonCode: 'FC',
        vatCategory: 'S',
        vatRate: new Decimal('19'),
      },
    ],
    lines: Array.from({ length: 10 }, (_, i) => ({
      name: `Position ${i + 1}`,
      description: 'Leistungsbeschreibung',
      quantity: new Decimal(String(i + 1)),
      unitCode: 'HUR',
      unitPrice: new Decimal('95.50'),
      discountPercent: i % 3 === 0 ? new Decimal('10') : null,
      vatRate: new Decimal('19'),
      vatCategory: 'S',
      exemptionReason: null,
    })),
    pricesIncludeTax: false,
    draft: false,
    test: false,
  });
  await renderPdf(view, { lang: 'de' }); // warm-up: fonts parsed once
  let count = 0;
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    await renderPdf(view, { lang: 'de' });
    count++;
  }
  return count;
}

if (isMainThread) {
  const seconds = Number(process.argv[2] ?? 10);
  const workers = Number(process.argv[3] ?? 0);
  const started = performance.now();
  const counts =
    workers === 0
      ? [await work(seconds)]
      : await Promise.all(
          Array.from(
            { length: workers },
            () =>
              new Promise((resolve, reject) => {
                const worker = new Worker(new URL(import.meta.url), { workerData: { seconds } });
                worker.once('message', resolve);
                worker.once('error', reject);
              }),
          ),
        );
  const elapsed = (performance.now() - started) / 1000;
  const total = counts.reduce((a, b) => a + b, 0);
  const peakMb = Math.round(resourceUsage().maxRSS / 1024);
  process.stdout.write(
    `${total} PDFs in ${elapsed.toFixed(1)} s ${workers === 0 ? 'in the main thread' : `with ${workers} worker threads`}: ${(total / seconds).toFixed(1)} PDFs/s, peak RSS ${peakMb} MB\n`,
  );
} else {
  parentPort.postMessage(await work(workerData.seconds));
}
