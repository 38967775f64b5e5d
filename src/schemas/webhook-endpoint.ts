import { Type, type Static } from '@sinclair/typebox';
import { EVENT_SELECTORS } from './event-types.js';
import { DocumentedAs } from './documented-as.js';
import { Nullable } from './nullable.js';
import { Livemode } from './values.js';

// A webhook endpoint: where events of the chosen types are POSTed, signed with its secret.

// The validator takes any short string as a selector, so that an unknown one is answered by the
// endpoint service with the list of valid ones (not "Must be equal to constant"); the document
// lists them.
const EventSelector = DocumentedAs(
  Type.String({ minLength: 1, maxLength: 100 }),
  Type.Union(EVENT_SELECTORS.map((selector) => Type.Literal(selector))),
);

const EventSelection = Type.Array(EventSelector, {
  minItems: 1,
  maxItems: EVENT_SELECTORS.length,
  uniqueItems: true,
  description:
    'What to deliver: event types, a resource\'s wildcard for all its types (invoice.*, also types added to it later), or ["*"] alone for every event. An unknown type is refused with the list of valid ones.',
  examples: [['invoice.*', 'credit-note.created']],
});

/** The longest endpoint URL and description the API takes; the panel's form says the same. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 500;

const Url = Type.String({
  minLength: 1,
  maxLength: MAX_WEBHOOK_URL_LENGTH,
  description: 'An https URL whose host resolves to public addresses only.',
  examples: ['https://erp.example.com/hooks/invoicing'],
});

export const CreateWebhookEndpointBody = Type.Object(
  {
    url: Url,
    events: EventSelection,
    description: Type.Optional(Nullable(Type.String({ maxLength: MAX_WEBHOOK_DESCRIPTION_LENGTH }))),
  },
  { title: 'CreateWebhookEndpointInput', additionalProperties: false },
);
export type CreateWebhookEndpointInput = Static<typeof CreateWebhookEndpointBody>;

export const UpdateWebhookEndpointBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(EventSelection),
    description: Type.Optional(Nullable(Type.String({ maxLength: MAX_WEBHOOK_DESCRIPTION_LENGTH }))),
    enabled: Type.Optional(
      Type.Boolean({ description: 'false stops deliveries (pending ones wait); true resumes them.' }),
    ),
  },
  { title: 'UpdateWebhookEndpointInput', additionalProperties: false },
);
export type UpdateWebhookEndpointInput = Static<typeof UpdateWebhookEndpointBody>;

const endpointFields = {
  id: Type.String({ examples: ['we_01956b10-2a3b-7c4d-8e5f-6a7b8c9d0e1f'] }),
  livemode: Livemode,
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  enabled: Type.Boolean(),
  disabledReason: Nullable(
    Type.Literal('failing', {
      description:
        'failing: every delivery failed for 5 days, so it was disabled; null when enabled or disabled by hand.',
    }),
  ),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
};

export const WebhookEndpointSchema = Type.Object(endpointFields, { title: 'WebhookEndpoint' });
export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;

export const WebhookEndpointWithSecretSchema = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({
      pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
      description: 'The signing secret: whsec_ and base64 of 32 random bytes. Shown only in this answer; store it now.',
    }),
  },
  { title: 'WebhookEndpointWithSecret' },
);
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecretSchema>;
