import { randomUUID } from 'node:crypto';
import type { ErrorDetail } from '../errors/app-error.js';
import {
  EMAIL_LANGUAGES,
  XML_FORMATS,
  type EmailLanguage,
  type SendDocumentInput,
  type XmlFormat,
} from '../schemas/email-delivery.js';
import type { FieldErrors } from './views/forms.js';
import type { SendFormValues } from './views/deliveries.js';

// The Send form of an invoice's or credit note's page, read into what POST …/send takes: the
// limits the API's schema keeps (at most 10 addresses each, 3 to 254 characters), and the
// service's own refusals put back under their field.

const MAX_ADDRESSES = 10;

export const SEND_FORM_FIELDS = ['to', 'cc', 'language', 'xmlFormat', 'idempotencyKey'] as const;

export function newSendFormValues(buyerEmail: string | null): SendFormValues {
  return { to: buyerEmail ?? '', cc: '', language: '', xmlFormat: 'cii', idempotencyKey: randomUUID() };
}

/** Addresses separated by commas, semicolons or spaces; each once. */
function addresses(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).filter(Boolean))];
}

export type ReadSendForm = { ok: true; input: SendDocumentInput } | { ok: false; errors: FieldErrors };

export function readSendForm(values: SendFormValues): ReadSendForm {
  const errors: FieldErrors = {};
  const to = addresses(values.to);
  const cc = addresses(values.cc);
  for (const [name, list] of [
    ['to', to],
    ['cc', cc],
  ] as const) {
    if (list.length > MAX_ADDRESSES) errors[name] = `At most ${MAX_ADDRESSES} addresses.`;
    else {
      const bad = list.find((a) => a.length < 3 || a.length > 254);
      if (bad) errors[name] = `"${bad.slice(0, 60)}" is not one email address.`;
    }
  }
  if (values.language !== '' && !(EMAIL_LANGUAGES as readonly string[]).includes(values.language))
    errors.language = 'Choose a language from the list.';
  if (!(XML_FORMATS as readonly string[]).includes(values.xmlFormat))
    errors.xmlFormat = 'Choose an e-invoice from the list.';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    input: {
      ...(to.length > 0 ? { to } : {}),
      ...(cc.length > 0 ? { cc } : {}),
      ...(values.language ? { language: values.language as EmailLanguage } : {}),
      xmlFormat: values.xmlFormat as XmlFormat,
    },
  };
}

/** The service's refusal details under the form's fields: `to[2]` is the To field's. */
export function sendFormErrors(details: ErrorDetail[] | undefined, field: 'to' | 'xmlFormat'): FieldErrors {
  const errors: FieldErrors = {};
  for (const detail of details ?? []) {
    const name = detail.field.startsWith('cc') ? 'cc' : detail.field.startsWith('to') ? 'to' : field;
    errors[name] = errors[name] ? `${errors[name]} ${detail.message}` : detail.message;
  }
  return errors;
}
