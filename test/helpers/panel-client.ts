import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { FirstRunSetup } from '../../src/panel/setup.js';
import { UserService, type UserRole } from '../../src/panel/users.js';

// A browser stand-in for route tests of the panel: keeps cookies, and the CSRF token of the
// last page it read, and posts forms as a browser does.

export const PASSWORD = 'correct horse battery';

export class PanelClient {
  readonly cookies = new Map<string, string>();
  csrf = '';

  constructor(
    private readonly app: FastifyInstance,
    private readonly headers: Record<string, string> = {},
  ) {}

  private cookieHeader(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }

  private absorb(response: LightMyRequestResponse): LightMyRequestResponse {
    for (const c of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired =
        c.maxAge === 0 || (c.expires !== undefined && c.expires.getTime() <= Date.now()) || c.value === '';
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1];
    if (token) this.csrf = token;
    return response;
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    return this.absorb(
      await this.app.inject({ method: 'GET', url, headers: { ...this.headers, ...this.cookieHeader() } }),
    );
  }

  /** Posts a form; the CSRF token of the last page is added unless `csrf: false` (a forged post). */
  async post(
    url: string,
    fields: Record<string, string | string[]> = {},
    options: { csrf?: boolean | string } = {},
  ): Promise<LightMyRequestResponse> {
    const body = new URLSearchParams();
    if (options.csrf !== false) body.append('_csrf', typeof options.csrf === 'string' ? options.csrf : this.csrf);
    for (const [name, value] of Object.entries(fields))
      for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
    return this.absorb(
      await this.app.inject({
        method: 'POST',
        url,
        headers: { ...this.headers, ...this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: body.toString(),
      }),
    );
  }

  async signIn(email: string, password = PASSWORD): Promise<LightMyRequestResponse> {
    await this.get('/panel/sign-in');
    return this.post('/panel/sign-in', { email, password });
  }
}

/** Claims a fresh instance through the setup page; returns the owner's signed-in client and company. */
export async function claimInstance(
  app: FastifyInstance,
  email = 'owner@example.com',
): Promise<{ owner: PanelClient; companyId: string }> {
  const token = await new FirstRunSetup(app.container.storage.db, app.container.repositories).issueToken();
  if (!token) throw new Error('the instance is already claimed');
  const owner = new PanelClient(app);
  await owner.get(`/panel/setup?token=${token}`);
  const res = await owner.post('/panel/setup', {
    token,
    companyName: 'Owner Co',
    currency: 'EUR',
    email,
    password: PASSWORD,
    passwordConfirm: PASSWORD,
  });
  if (res.statusCode !== 303) throw new Error(`setup failed: ${res.statusCode} ${res.body.slice(0, 500)}`);
  const user = await app.container.storage.db
    .selectFrom('users')
    .select('company_id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return { owner, companyId: user.company_id };
}

/** A user of the company, signed in. */
export async function signedInAs(
  app: FastifyInstance,
  companyId: string,
  email: string,
  role: UserRole,
): Promise<PanelClient> {
  const created = await new UserService(app.container.storage.db, app.container.repositories).create({
    companyId,
    email,
    role,
    password: PASSWORD,
  });
  if (!created.ok) throw new Error(created.detail);
  const client = new PanelClient(app);
  const res = await client.signIn(email);
  if (res.statusCode !== 303) throw new Error(`sign-in failed: ${res.statusCode}`);
  return client;
}

/** The one-time key shown on the reveal page, if any. */
export function revealedKey(body: string): string | undefined {
  return /<code id="new-key" class="secret">([^<]+)<\/code>/.exec(body)?.[1];
}
