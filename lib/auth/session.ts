import 'server-only';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { decode } from 'next-auth/jwt';
import { cache } from 'react';
import { findSessionMember, type Member } from '@/lib/auth/store';
import { getEnv } from '@/lib/platform/env';

const SESSION_COOKIES = ['__Secure-next-auth.session-token', 'next-auth.session-token'];

/**
 * The data layer's session check: the member of an organisation signed in on this request, or
 * null. It decodes the next-auth cookie itself and then requires the session row to be live and
 * the membership to stand, so a revoked, expired, tampered or foreign cookie, or a member removed
 * a moment ago, reads as signed out (never an error). One query, cached per request; it brings
 * the role and buildings every scope check of the request uses.
 */
export const getCurrentMember = cache(async (): Promise<Member | null> => {
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
  return findSessionMember({ sessionId });
});

/** For pages that need a member: the member, or a redirect to sign-in. */
export async function requireMember(): Promise<Member> {
  const member = await getCurrentMember();
  if (!member) redirect('/sign-in');
  return member;
}
