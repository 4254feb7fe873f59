import 'server-only';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { decode } from 'next-auth/jwt';
import { cache } from 'react';
import { findSessionUser, type PublicUser } from '@/lib/db/queries';
import { getEnv } from '@/lib/env';

const SESSION_COOKIES = ['__Secure-next-auth.session-token', 'next-auth.session-token'];

/**
 * The data layer's session check: the signed-in user of this request, or null. It decodes the
 * next-auth cookie itself and then requires the session row to be live, so a revoked, expired,
 * tampered or foreign cookie reads as signed out (never an error). Cached per request.
 */
export const getCurrentUser = cache(async (): Promise<PublicUser | null> => {
  const jar = await cookies();
  const raw = SESSION_COOKIES.map((name) => jar.get(name)?.value).find(Boolean);
  if (!raw) return null;
  let sessionId: unknown;
  try {
    const token = await decode({ token: raw, secret: getEnv().AUTH_SECRET });
    sessionId = token?.sid;
  } catch {
    return null;
  }
  if (typeof sessionId !== 'string') return null;
  return findSessionUser({ sessionId });
});

/** For pages and actions that need a manager: the user, or a redirect to sign-in. */
export async function requireUser(): Promise<PublicUser> {
  const user = await getCurrentUser();
  if (!user) redirect('/sign-in');
  return user;
}
