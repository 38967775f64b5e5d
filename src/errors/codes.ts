// The one table from machine code to HTTP status and default message, for the API and the panel.
// Every error the service answers with is listed here; nothing else maps codes to statuses.
// `retry` says how a client gets past a refusal: 'fix' (correct the request or its credentials) or
// 'later' (the same request may pass when sent again). A code without it is final: the same request
// gets the same answer, so an Idempotency-Key keeps it for repeats (see keptForRepeats).

export const ERRORS = {
  VALIDATION_ERROR: { status: 400, retry: 'fix', message: 'The request is not valid.' },
  INVALID_JSON: { status: 400, retry: 'fix', message: 'The request body is not valid JSON.' },
  NAME_REQUIRED: { status: 400, retry: 'fix', message: 'The field "name" is required.' },
  NAME_FIELDS_REQUIRED: {
    status: 400,
    retry: 'fix',
    message: 'The fields "firstName" and "lastName" are required when "typeCode" is "F".',
  },
  ORG_TYPE_REQUIRED: {
    status: 400,
    retry: 'fix',
    message: 'At least one organization type flag ("isCustomer", "isSupplier") must be true.',
  },
  ORGANIZATION_NOT_FOUND: { status: 400, retry: 'fix', message: 'The organization does not exist.' },
  ORGANIZATION_ARCHIVED: {
    status: 400,
    retry: 'fix',
    message: 'The organization is archived: restore it before invoicing it.',
  },
  INVOICE_NOT_FOUND: { status: 400, retry: 'fix', message: 'The invoice does not exist.' },
  UNAUTHORIZED: { status: 401, retry: 'fix', message: 'Credentials are required.' },
  INVALID_API_KEY: { status: 401, retry: 'fix', message: 'The API key is missing, invalid, revoked or expired.' },
  FORBIDDEN: { status: 403, retry: 'fix', message: 'The API key lacks the permission this endpoint requires.' },
  NOT_FOUND: { status: 404, message: 'The requested resource does not exist.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'The method is not allowed on this resource.' },
  NAME_CONFLICT: { status: 409, message: 'An organization with this name already exists.' },
  INVOICE_NUMBER_CONFLICT: { status: 409, message: 'An invoice with this number already exists.' },
  INVOICE_NOT_DRAFT: {
    status: 409,
    message:
      'The invoice is not a draft: issued invoices are never edited or deleted; correct them with a credit note.',
  },
  INVOICE_NOT_ISSUED: { status: 409, message: 'The invoice is a draft: it has not been issued.' },
  INVOICE_NOT_PAYABLE: { status: 409, message: 'The invoice cannot take a payment: it is a draft or void.' },
  PAYMENT_EXCEEDS_AMOUNT_DUE: {
    status: 409,
    message: 'The payment is more than the amount due; the detail names the amount due.',
  },
  INVOICE_NOT_REFUNDABLE: {
    status: 409,
    message: 'The invoice cannot take a refund: it is a draft or void, so nothing was paid on it.',
  },
  REFUND_EXCEEDS_AMOUNT_OWED: {
    status: 409,
    message:
      'The refund is more than the buyer is owed (what was paid beyond what the invoice still asks for); the detail names that amount.',
  },
  INVOICE_HAS_PAYMENTS: {
    status: 409,
    message: 'The invoice has payments: issue a credit note and refund instead of voiding it.',
  },
  INVOICE_ALREADY_VOID: { status: 409, message: 'The invoice is already void.' },
  INVOICE_NOT_CREDITABLE: { status: 409, message: 'Only issued or paid invoices can be credited.' },
  CREDIT_EXCEEDS_INVOICE: {
    status: 409,
    message:
      "The credit notes would credit more than the invoice's payable amount; the detail names what can still be credited.",
  },
  WEBHOOK_ENDPOINT_LIMIT: {
    status: 409,
    message: 'The company has as many webhook endpoints as it may have (20): delete one first.',
  },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    retry: 'later',
    message: 'A request with this Idempotency-Key is still being processed. Retry after the time given in Retry-After.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    message: 'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
  },
  MALFORMED_REQUEST: { status: 400, retry: 'fix', message: 'The request is not valid HTTP.' },
  REQUEST_TIMEOUT: {
    status: 408,
    retry: 'later',
    message: 'The request did not arrive in time. Send it again, faster.',
  },
  EINVOICE_INCOMPLETE: {
    status: 422,
    message:
      'The document lacks what this e-invoice needs: each detail names the field to set and the rule it would break.',
  },
  EINVOICE_REFUSED: {
    status: 422,
    message:
      'The document is not an e-invoice this service reads (not XML or PDF, broken XML, a PDF without an invoice, an order); the detail says what was found.',
  },
  EINVOICE_INVALID: {
    status: 422,
    message:
      'The e-invoice breaks rules it must meet and ?require=valid refuses it; each detail names a rule, its business term and where it is broken.',
  },
  DUPLICATE_DOCUMENT: {
    status: 409,
    message:
      'This supplier already sent a document of this kind with this number; the detail names the one received first.',
  },
  PURCHASE_INVOICE_NOT_APPROVABLE: {
    status: 409,
    message: 'The purchase invoice cannot be approved: it is paid already.',
  },
  PURCHASE_INVOICE_NOT_DISPUTABLE: {
    status: 409,
    message: 'The purchase invoice cannot be disputed: it is paid already.',
  },
  PURCHASE_INVOICE_NOT_PAYABLE: {
    status: 409,
    message:
      'The purchase invoice cannot take a payment: it is not approved, it is a credit note, it states no payable amount, or nothing is due.',
  },
  QUOTE_NOT_SENT: {
    status: 409,
    message: 'The quote is a draft: it has no PDF until it is sent (POST /quote/{id}/send).',
  },
  QUOTE_NOT_DRAFT: { status: 409, message: 'The quote is not a draft: it was sent already.' },
  QUOTE_NOT_OPEN: { status: 409, message: 'The quote is not open: it is a draft, or the buyer answered it already.' },
  QUOTE_EXPIRED: { status: 409, message: 'The quote has expired: its validUntil date has passed.' },
  QUOTE_NOT_ACCEPTED: { status: 409, message: 'Only an accepted quote can be made into an invoice.' },
  QUOTE_ALREADY_INVOICED: { status: 409, message: 'An invoice was made from this quote already; the detail names it.' },
  RECURRING_INVOICE_ENDED: {
    status: 409,
    message: 'The recurring invoice has ended: it runs no more and cannot be changed; create a new one.',
  },
  PAYLOAD_TOO_LARGE: { status: 413, retry: 'fix', message: 'The request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    retry: 'fix',
    message: 'The request body must be sent as application/json.',
  },
  REQUEST_HEADERS_TOO_LARGE: { status: 431, retry: 'fix', message: 'The request headers are too large.' },
  RATE_LIMITED: {
    status: 429,
    retry: 'later',
    message: 'Too many requests. Back off and retry after the time given in Retry-After.',
  },
  INTERNAL_SERVER_ERROR: {
    status: 500,
    retry: 'later',
    message: 'An unexpected error occurred. Contact support with the request id.',
  },
  EMAIL_NOT_CONFIGURED: {
    status: 503,
    retry: 'later',
    message:
      'Sending by email is not set up on this service: its operator sets SMTP_URL and SMTP_FROM (docs/delivery.md).',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    retry: 'later',
    message: 'The service is temporarily unavailable. Retry later.',
  },
} as const satisfies Record<string, { status: number; message: string; retry?: 'fix' | 'later' }>;

export type ErrorCode = keyof typeof ERRORS;

/** Whether an idempotent request's refusal with this code is stored and answered again to repeats. */
export function keptForRepeats(code: ErrorCode): boolean {
  return !('retry' in ERRORS[code]);
}
