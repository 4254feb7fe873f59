import { describe, expect, it } from 'vitest';
import { carriesSession, fromOwnOrigin } from '@/lib/platform/request-origin';

const PUBLIC = 'https://setpoint.example.com';
const headers = (values: Record<string, string>) => new Headers(values);
const SESSION = 'other=1; next-auth.session-token=abc';

/** A write with the session must come from Setpoint's own pages (issue 37's tightening). */
describe('fromOwnOrigin', () => {
  it('takes the public origin and the addressed host, and refuses another site and null', () => {
    expect(fromOwnOrigin(headers({ origin: PUBLIC, cookie: SESSION }), PUBLIC)).toBe(true);
    expect(
      fromOwnOrigin(headers({ origin: 'http://10.0.0.5:3000', host: '10.0.0.5:3000' }), PUBLIC),
    ).toBe(true);
    expect(
      fromOwnOrigin(headers({ origin: 'https://evil.example', cookie: SESSION }), PUBLIC),
    ).toBe(false);
    expect(fromOwnOrigin(headers({ origin: 'null' }), PUBLIC)).toBe(false);
  });

  it('lets an origin-less request through only without a session, or from the same site', () => {
    expect(fromOwnOrigin(headers({}), PUBLIC)).toBe(true);
    expect(fromOwnOrigin(headers({ cookie: 'other=1' }), PUBLIC)).toBe(true);
    expect(fromOwnOrigin(headers({ cookie: SESSION }), PUBLIC)).toBe(false);
    expect(fromOwnOrigin(headers({ cookie: '__Secure-next-auth.session-token=x' }), PUBLIC)).toBe(
      false,
    );
    expect(
      fromOwnOrigin(headers({ cookie: SESSION, 'sec-fetch-site': 'same-origin' }), PUBLIC),
    ).toBe(true);
    expect(
      fromOwnOrigin(headers({ cookie: SESSION, 'sec-fetch-site': 'cross-site' }), PUBLIC),
    ).toBe(false);
  });

  it('knows a session cookie by its name, not by a value that looks like one', () => {
    expect(carriesSession(headers({ cookie: 'x=next-auth.session-token=1' }))).toBe(false);
    expect(carriesSession(headers({ cookie: 'a=1;next-auth.session-token=2' }))).toBe(true);
    // A large session comes in chunks.
    expect(
      carriesSession(
        headers({ cookie: 'next-auth.session-token.0=a; next-auth.session-token.1=b' }),
      ),
    ).toBe(true);
  });
});
