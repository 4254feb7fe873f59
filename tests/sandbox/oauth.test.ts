import { beforeEach, describe, expect, it } from 'vitest';
import { boot, CLIENT_ID, REDIRECT_URI, SCOPE, withSandbox } from './helpers';

const running = withSandbox();
let client: typeof running.client;

beforeEach(async () => {
  client = running.client;
  await client.reset();
});

function authorizeUrl(params: Record<string, string | undefined>): string {
  const base = {
    response_type: 'code',
    client_id: CLIENT_ID,
    scope: SCOPE,
    redirect_uri: REDIRECT_URI,
  };
  const merged = { ...base, ...params };
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(merged)) {
    if (value !== undefined) search.set(name, value);
  }
  return `/authorize?${search}`;
}

function hiddenToken(html: string): string {
  const match = /name="request" value="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error('no request token in consent page');
  return match[1];
}

async function submit(token: string, fields: Record<string, string>) {
  const response = await fetch(`${client.base}/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request: token, ...fields }),
    redirect: 'manual',
  });
  return {
    status: response.status,
    location: response.headers.get('location'),
    html: await response.text(),
  };
}

describe('GET /authorize', () => {
  it('renders an escaped consent page with labelled inputs, client id and scope', async () => {
    const reply = await client.request('GET', authorizeUrl({ state: '<script>x</script>' }));
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/html');
    expect(reply.text).toContain('setpoint-local');
    expect(reply.text).toContain('smartWrite');
    expect(reply.text).toMatch(/<label for="email">/);
    expect(reply.text).toMatch(/<label for="password">/);
    expect(reply.text).toMatch(/value="accept"/);
    expect(reply.text).toMatch(/value="decline"/);
    expect(reply.text).not.toContain('<script>');
    expect(reply.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('shows an error page, never a redirect, for an unknown or missing client', async () => {
    for (const clientId of ['nope', undefined]) {
      const reply = await client.request('GET', authorizeUrl({ client_id: clientId }));
      expect(reply.status).toBe(400);
      expect(reply.headers.get('location')).toBeNull();
      expect(reply.text).toContain('Unknown application');
    }
  });

  it('shows an error page for a bad redirect_uri: port, length, unregistered, missing', async () => {
    const long = `http://localhost/${'a'.repeat(240)}`;
    const cases = [
      ['http://localhost:3000/api/connect/callback', 'port'],
      [long, '255'],
      ['http://evil.example/api/connect/callback', 'not registered'],
      ['http://localhost/api/connect/callback/', 'not registered'],
      [undefined, 'required'],
    ] as const;
    for (const [uri, text] of cases) {
      const reply = await client.request('GET', authorizeUrl({ redirect_uri: uri }));
      expect(reply.status, uri).toBe(400);
      expect(reply.headers.get('location')).toBeNull();
      expect(reply.text).toContain(text);
    }
  });

  it('redirects with an error for a wrong response_type or scope once the redirect is trusted', async () => {
    let reply = await client.request('GET', authorizeUrl({ response_type: 'token', state: 's1' }));
    expect(reply.status).toBe(302);
    let redirectUrl = new URL(reply.headers.get('location') as string);
    expect(redirectUrl.searchParams.get('error')).toBe('unsupported_response_type');
    expect(redirectUrl.searchParams.get('state')).toBe('s1');
    reply = await client.request('GET', authorizeUrl({ scope: 'everything' }));
    redirectUrl = new URL(reply.headers.get('location') as string);
    expect(redirectUrl.searchParams.get('error')).toBe('invalid_scope');
    expect(redirectUrl.searchParams.has('state')).toBe(false);
    reply = await client.request('GET', authorizeUrl({ scope: undefined }));
    expect(new URL(reply.headers.get('location') as string).searchParams.get('error')).toBe(
      'invalid_scope',
    );
  });
});

describe('consent page', () => {
  it('accept redirects with code and state; the code exchanges for tokens', async () => {
    const page = await client.request('GET', authorizeUrl({ state: 'xyz 123' }));
    const reply = await submit(hiddenToken(page.text), {
      email: 'demo@sandbox.test',
      password: 'demo-password',
      decision: 'accept',
    });
    expect(reply.status).toBe(302);
    const redirectUrl = new URL(reply.location as string);
    expect(`${redirectUrl.origin}${redirectUrl.pathname}`).toBe(REDIRECT_URI);
    expect(redirectUrl.searchParams.get('state')).toBe('xyz 123');
    const code = redirectUrl.searchParams.get('code') as string;
    expect(code).toContain('sbx_ac_');
    const tokens = await client.exchange(code);
    expect(tokens.status).toBe(200);
  });

  it('accept without state sends no state parameter', async () => {
    const page = await client.request('GET', authorizeUrl({}));
    const reply = await submit(hiddenToken(page.text), {
      email: 'demo@sandbox.test',
      password: 'demo-password',
      decision: 'accept',
    });
    const redirectUrl = new URL(reply.location as string);
    expect(redirectUrl.searchParams.has('code')).toBe(true);
    expect(redirectUrl.searchParams.has('state')).toBe(false);
  });

  it('decline redirects with access_denied, a description and the state', async () => {
    const page = await client.request('GET', authorizeUrl({ state: 'st' }));
    const reply = await submit(hiddenToken(page.text), { decision: 'decline' });
    const redirectUrl = new URL(reply.location as string);
    expect(redirectUrl.searchParams.get('error')).toBe('access_denied');
    expect(redirectUrl.searchParams.get('error_description')).toBeTruthy();
    expect(redirectUrl.searchParams.get('state')).toBe('st');
    expect(redirectUrl.searchParams.has('code')).toBe(false);
  });

  it('a wrong password re-renders with an error and a fresh token', async () => {
    const page = await client.request('GET', authorizeUrl({}));
    const first = hiddenToken(page.text);
    const reply = await submit(first, {
      email: 'demo@sandbox.test',
      password: 'wrong',
      decision: 'accept',
    });
    expect(reply.status).toBe(200);
    expect(reply.html).toContain('incorrect');
    expect(reply.html).toContain('value="demo@sandbox.test"');
    expect(hiddenToken(reply.html)).not.toBe(first);
  });

  it('rejects a missing, forged or reused request token', async () => {
    expect((await submit('forged', { decision: 'decline' })).status).toBe(400);
    const page = await client.request('GET', authorizeUrl({}));
    const token = hiddenToken(page.text);
    await submit(token, { decision: 'decline' });
    const again = await submit(token, { decision: 'decline' });
    expect(again.status).toBe(400);
    expect(again.location).toBeNull();
  });

  it('the second demo user signs in too', async () => {
    const page = await client.request('GET', authorizeUrl({}));
    const reply = await submit(hiddenToken(page.text), {
      email: 'other@sandbox.test',
      password: 'other-password',
      decision: 'accept',
    });
    expect(new URL(reply.location as string).searchParams.has('code')).toBe(true);
  });
});

describe('relaxed port rule (SANDBOX_ALLOW_REDIRECT_PORTS)', () => {
  it('accepts registered port-bearing redirect URIs only when relaxed', async () => {
    const relaxed = await boot({ allowRedirectPorts: true });
    try {
      const uri = 'http://localhost:3000/api/connect/callback';
      const reply = await relaxed.client.request('GET', authorizeUrl({ redirect_uri: uri }));
      expect(reply.status).toBe(200);
      const bad = await relaxed.client.request(
        'GET',
        authorizeUrl({ redirect_uri: 'http://localhost:9999/api/connect/callback' }),
      );
      expect(bad.status).toBe(400);
    } finally {
      await relaxed.sandbox.close();
    }
  });

  it('custom clients come from configuration', async () => {
    const custom = await boot({
      clients: [{ clientId: 'acme', redirectUris: ['https://acme.example/cb'] }],
    });
    try {
      const ok = await custom.client.request(
        'GET',
        authorizeUrl({ client_id: 'acme', redirect_uri: 'https://acme.example/cb' }),
      );
      expect(ok.status).toBe(200);
      const gone = await custom.client.request('GET', authorizeUrl({}));
      expect(gone.status).toBe(400);
    } finally {
      await custom.sandbox.close();
    }
  });
});
