import { type NextRequest, NextResponse } from 'next/server';
import NextAuth from 'next-auth';
import { getAuthOptions } from '@/lib/auth/options';
import { safeReturnPath } from '@/lib/platform/return-path';
import { signInEmailCookie } from '@/lib/auth/sign-in-email';
import { getEnv } from '@/lib/platform/env';

/**
 * The sign-in form's target: next-auth's own credentials sign-in, unchanged, except that when it
 * answers with its error page, the member comes back to the sign-in page with the error and the
 * page they were going to, and the email they typed in a short-lived cookie (next-auth's error
 * page keeps neither).
 * A plain form post, so signing in works without JavaScript.
 */
export async function POST(request: NextRequest) {
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  const response = await NextAuth(
    request as never,
    { params: Promise.resolve({ nextauth: ['callback', 'credentials'] }) } as never,
    getAuthOptions(),
  );
  const location = response.headers.get('location');
  const base = new URL(getEnv().NEXTAUTH_URL);
  if (!location || new URL(location, base).pathname !== '/api/auth/error') return response;

  const back = new URL('/sign-in', base);
  back.searchParams.set('error', new URL(location, base).searchParams.get('error') ?? 'Default');
  const callbackUrl = safeReturnPath(form?.get('callbackUrl'));
  if (callbackUrl !== '/') back.searchParams.set('callbackUrl', callbackUrl);
  const redirect = NextResponse.redirect(back, 303);
  const email = form?.get('email');
  if (typeof email === 'string' && email.length <= 254) {
    redirect.cookies.set(signInEmailCookie(email));
  }
  for (const cookie of response.headers.getSetCookie())
    redirect.headers.append('set-cookie', cookie);
  return redirect;
}
