import { Type } from '@sinclair/typebox';
import { Nullable } from './nullable.js';

// What a single document's answer says about its hosted page (docs/hosted-pages.md).

export const hostedLinkFields = (noun: 'invoice' | 'credit note', path: string) => ({
  hostedUrl: Type.Optional(
    Nullable(
      Type.String({ format: 'uri' }),
      `In the answers about one ${noun} and its events, not in lists: the address of its public page (for the buyer: the document, its status and balance, how to pay, the PDF and XML), unguessable and revocable (POST ${path}/hosted-link/rotate). Null for a draft, and where the operator set no PUBLIC_BASE_URL.`,
    ),
  ),
  viewedAt: Type.Optional(
    Nullable(
      Type.String({ format: 'date-time' }),
      `In the answers about one ${noun} and its events, not in lists: when its public page was first opened (by any of its links); null until then.`,
    ),
  ),
});
