import { Type } from '@sinclair/typebox';
import { Nullable } from './nullable.js';

// What a single document's answer says about its hosted page (docs/hosted-pages.md).

/** What the buyer finds on the page of each kind of document. */
const PAGE_SHOWS = {
  invoice: 'the document, its status and balance, how to pay, the PDF and XML',
  'credit note': 'the document, its status and balance, how to pay, the PDF and XML',
  quote: 'the quote, its state and validity, the PDF, and buttons to accept or decline it while it is open',
} as const;

const NOT_YET = { invoice: 'a draft', 'credit note': 'a draft', quote: 'a draft (it gets one when sent)' } as const;

export const hostedLinkFields = (noun: 'invoice' | 'credit note' | 'quote', path: string) => ({
  hostedUrl: Type.Optional(
    Nullable(
      Type.String({ format: 'uri' }),
      `In the answers about one ${noun} and its events, not in lists: the address of its public page (for the buyer: ${PAGE_SHOWS[noun]}), unguessable and revocable (POST ${path}/hosted-link/rotate). Null for ${NOT_YET[noun]}, and where the operator set no PUBLIC_BASE_URL.`,
    ),
  ),
  viewedAt: Type.Optional(
    Nullable(
      Type.String({ format: 'date-time' }),
      `In the answers about one ${noun} and its events, not in lists: when its public page was first opened (by any of its links); null until then.`,
    ),
  ),
});
