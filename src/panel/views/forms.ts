import { html, type SafeHtml } from '../html.js';

// Accessible form controls: a visible label bound to the field, the error right under it
// (announced through aria-describedby and aria-invalid), and focus on the first invalid field.

export type FieldErrors = Partial<Record<string, string>>;

export interface FieldOptions {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password' | 'date' | 'search';
  value?: string;
  errors?: FieldErrors;
  hint?: string;
  required?: boolean;
  autocomplete?: string;
  autofocus?: boolean;
  maxlength?: number;
  minlength?: number;
}

export function firstError(errors: FieldErrors | undefined): string | undefined {
  return errors ? Object.keys(errors).find((k) => errors[k] !== undefined) : undefined;
}

export function describedBy(name: string, errors: FieldErrors | undefined, hint?: string): SafeHtml {
  const ids = [errors?.[name] ? `${name}-error` : '', hint ? `${name}-hint` : ''].filter(Boolean).join(' ');
  return ids ? html` aria-describedby="${ids}"` : html``;
}

export function fieldMessages(name: string, errors: FieldErrors | undefined, hint?: string): SafeHtml {
  const error = errors?.[name];
  return html`${error ? html`<small id="${name}-error" class="field-error">${error}</small>` : ''}${hint ? html`<small id="${name}-hint">${hint}</small>` : ''}`;
}

export function field(o: FieldOptions): SafeHtml {
  const error = o.errors?.[o.name];
  const focus = o.autofocus || firstError(o.errors) === o.name;
  return html`<label for="${o.name}">${o.label}${o.required ? '' : html` <span class="optional">(optional)</span>`}</label>
<input id="${o.name}" name="${o.name}" type="${o.type ?? 'text'}" value="${o.type === 'password' ? '' : (o.value ?? '')}"${o.required ? html` required` : ''}${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : ''}${o.maxlength ? html` maxlength="${o.maxlength}"` : ''}${o.minlength ? html` minlength="${o.minlength}"` : ''}${error ? html` aria-invalid="true"` : ''}${describedBy(o.name, o.errors, o.hint)}${focus ? html` autofocus` : ''}>
${fieldMessages(o.name, o.errors, o.hint)}`;
}

export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

export function formErrorSummary(errors: FieldErrors | undefined): SafeHtml {
  const count = errors ? Object.values(errors).filter(Boolean).length : 0;
  if (count === 0) return html``;
  return html`<p class="notice notice-error" role="alert">${count === 1 ? 'One field needs attention.' : `${count} fields need attention.`} See the message under the field.</p>`;
}

export function time(iso: string | null | undefined, empty = '—', options: { seconds?: boolean } = {}): SafeHtml {
  if (!iso) return html`<span class="muted">${empty}</span>`;
  // Minutes are enough to read most times; a delivery log, whose retries come seconds apart, shows
  // seconds. The full instant is in the tooltip and the datetime attribute.
  const shown = iso.replace('T', ' ').replace(options.seconds ? /(\.\d+)?Z$/ : /:\d\d(\.\d+)?Z$/, '');
  return html`<time datetime="${iso}" title="${iso}">${shown}</time>`;
}

/** A multi-line field with the same label, error and hint wiring as `field`. */
export function textareaField(
  o: Omit<FieldOptions, 'type' | 'autocomplete' | 'minlength'> & { rows?: number },
): SafeHtml {
  const error = o.errors?.[o.name];
  const focus = o.autofocus || firstError(o.errors) === o.name;
  return html`<label for="${o.name}">${o.label}${o.required ? '' : html` <span class="optional">(optional)</span>`}</label>
<textarea id="${o.name}" name="${o.name}" rows="${o.rows ?? 3}"${o.required ? html` required` : ''}${o.maxlength ? html` maxlength="${o.maxlength}"` : ''}${error ? html` aria-invalid="true"` : ''}${describedBy(o.name, o.errors, o.hint)}${focus ? html` autofocus` : ''}>${o.value ?? ''}</textarea>
${fieldMessages(o.name, o.errors, o.hint)}`;
}
