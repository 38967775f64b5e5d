import { ERRORS, type ErrorCode } from './codes.js';

export interface ErrorDetail {
  field: string;
  code: string;
  message: string;
  /** Amount refusals: the largest amount that would have been taken, in the currency's digits. */
  maximum?: string;
  /** DUPLICATE_DOCUMENT: the id of the document received first. */
  existingId?: string;
  /** Rule findings (EINVOICE_INVALID): fatal or warning. */
  severity?: 'fatal' | 'warning';
  /** Rule findings: the business term the rule is about (BT-106, BG-23). */
  term?: string;
}

/** The one error type of the application: a machine code, a message safe to show, optional field details. */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string = ERRORS[code].message,
    options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
  }

  get status(): number {
    return ERRORS[this.code].status;
  }
}

export function validationError(details: ErrorDetail[]): AppError {
  const fields = [...new Set(details.map((d) => d.field))].join(', ');
  return new AppError('VALIDATION_ERROR', `The request is not valid: check ${fields}.`, { details });
}
