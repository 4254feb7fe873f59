import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCsrfCookie, csrfCookieName, csrfTokenOf } from '@/lib/auth/csrf';

// next-auth does not export its CSRF check; this is the file its handler runs.
const { createCSRFToken } = createRequire(import.meta.url)(
  path.resolve('node_modules/next-auth/core/lib/csrf-token.js'),
) as {
  createCSRFToken(input: {
    options: { secret: string };
    cookieValue?: string;
    isPost: boolean;
    bodyValue?: string;
  }): { csrfTokenVerified?: boolean; csrfToken: string; cookie?: string };
};

// The sign-in and sign-out forms post straight to next-auth with a CSRF cookie made by the
// proxy: next-auth itself must accept it, or no one can sign in.
describe('next-auth CSRF cookie', () => {
  const secret = 'a'.repeat(43);

  it('is one next-auth accepts for the token the form posts, and refuses for another', () => {
    const { token, value } = createCsrfCookie(secret);
    const options = { secret };
    expect(
      createCSRFToken({ options, cookieValue: value, isPost: true, bodyValue: token }),
    ).toMatchObject({ csrfTokenVerified: true, csrfToken: token });
    expect(
      createCSRFToken({ options, cookieValue: value, isPost: true, bodyValue: 'f'.repeat(64) }),
    ).toMatchObject({ csrfTokenVerified: false });
  });

  it('reads back only a cookie made with this secret', () => {
    const { token, value } = createCsrfCookie(secret);
    expect(csrfTokenOf(value, secret)).toBe(token);
    expect(csrfTokenOf(value, 'b'.repeat(43))).toBeNull();
    expect(csrfTokenOf(`${token}|forged`, secret)).toBeNull();
    expect(csrfTokenOf(undefined, secret)).toBeNull();
  });

  it('is named as next-auth names it, host-only behind https', () => {
    expect(csrfCookieName(false)).toBe('next-auth.csrf-token');
    expect(csrfCookieName(true)).toBe('__Host-next-auth.csrf-token');
  });
});
