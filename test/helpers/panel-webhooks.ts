import { expect } from 'vitest';
import type { PanelClient } from './panel-client.js';

// Adding webhook endpoints through the panel's form, as a signed-in owner or admin does.

/** The one-time signing secret on a secret page, if any. */
export function shownSecret(body: string): string | undefined {
  return /<code id="new-secret" class="secret">([^<]+)<\/code>/.exec(body)?.[1];
}

/** Posts the create form and follows it to the page that shows the secret once. */
export async function addEndpoint(
  client: PanelClient,
  fields: { url: string; events?: string | string[]; description?: string },
) {
  await client.get('/panel/webhooks');
  const res = await client.post('/panel/webhooks', { events: '*', ...fields });
  expect(res.statusCode, res.body).toBe(303);
  const location = String(res.headers.location);
  const id = /^\/panel\/webhooks\/([^/]+)\/secret$/.exec(location)?.[1];
  expect(id, location).toBeDefined();
  const shown = await client.get(location);
  return { id: id!, secret: shownSecret(shown.body), shown, location };
}
