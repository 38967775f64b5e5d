import { describe, expect, it } from 'vitest';
import { ERRORS, keptForRepeats, type ErrorCode } from '../../src/errors/codes.js';

// The one table from code to status also says which refusals an Idempotency-Key keeps for repeats:
// those a corrected or later retry should get past are never kept.

const CODES = Object.keys(ERRORS) as ErrorCode[];

describe('the error table', () => {
  it('keeps no refusal for repeats that a corrected request, other credentials or waiting could get past', () => {
    for (const code of CODES) {
      const { status } = ERRORS[code];
      if ([400, 401, 403, 429].includes(status) || status >= 500) expect(keptForRepeats(code), code).toBe(false);
    }
    expect(keptForRepeats('IDEMPOTENCY_CONFLICT')).toBe(false);
  });

  it('keeps the refusals the same request would get again, such as conflicts of state and incomplete e-invoices', () => {
    for (const code of [
      'NAME_CONFLICT',
      'INVOICE_NOT_DRAFT',
      'PAYMENT_EXCEEDS_AMOUNT_DUE',
      'EINVOICE_INCOMPLETE',
      'DUPLICATE_DOCUMENT',
    ] as const) {
      expect(keptForRepeats(code), code).toBe(true);
    }
  });

  it('gives every code a status the client can act on: 4xx or 5xx', () => {
    for (const code of CODES) expect(ERRORS[code].status, code).toBeGreaterThanOrEqual(400);
  });
});
