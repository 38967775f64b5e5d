import { Type } from '@sinclair/typebox';
import { AppError, validationError, type ErrorDetail } from '../errors/app-error.js';
import type { ErrorCode } from '../errors/codes.js';

// Path parameters and the mapping from a service's refusal to the error the client sees.

const idOf = (what: string, example: string) =>
  Type.Object({
    id: Type.String({
      description: `The ${what} id (${example.slice(0, example.indexOf('_') + 1)}…).`,
      examples: [example],
    }),
  });

export const InvoiceIdParams = idOf('invoice', 'inv_01956a3d-0a42-7d11-8e3a-6b1f0c9d2e57');
export const OrganizationIdParams = idOf('organization', 'org_01956a3c-7f10-7c2e-9b4d-2c5e8a1b3d4f');
export const CreditNoteIdParams = idOf('credit note', 'cn_01956a41-2b7d-7e21-9c3f-8a1b2c3d4e5f');
export const QuoteIdParams = idOf('quote', 'quo_01956a3d-0a42-7d11-8e3a-6b1f0c9d2e57');
export const RecurringInvoiceIdParams = idOf('recurring invoice', 'rin_01956a3d-0a42-7d11-8e3a-6b1f0c9d2e57');
export const PaymentIdParams = idOf('payment or refund', 'pay_01956a44-5e6f-7a81-9b2c-3d4e5f6a7b8c');
export const EventIdParams = idOf('event', 'evt_01956b02-6c1f-7b44-9a2c-3d4e5f6a7b8c');
export const WebhookEndpointIdParams = idOf('webhook endpoint', 'we_01956b10-2a3b-7c4d-8e5f-6a7b8c9d0e1f');

/** What a route says for each refusal of its action ("No invoice with this id.", …); a string is the NOT_FOUND message. */
export type RefusalMessages = string | Partial<Record<ErrorCode, string>>;

/**
 * A service's refusal as the error the API answers with. Its message is the service's own when
 * it has one (an amount refusal names the amounts), else the route's for its action (a code such
 * as INVOICE_NOT_ISSUED is shared by several actions, and each says what it refused), else the
 * code's default.
 */
export function refusal(
  result: { code: ErrorCode; details?: ErrorDetail[]; message?: string },
  messages: RefusalMessages = {},
): AppError {
  if (result.code === 'VALIDATION_ERROR') return validationError(result.details ?? []);
  const forAction = typeof messages === 'string' ? { NOT_FOUND: messages } : messages;
  return new AppError(
    result.code,
    result.message ?? forAction[result.code],
    result.details ? { details: result.details } : {},
  );
}
