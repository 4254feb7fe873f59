import 'server-only';
import { cookies } from 'next/headers';
import { getEnv } from '@/lib/platform/env';

/**
 * The email the sign-in form starts with after a failed attempt, a finished setup or a joining:
 * carried in a short-lived cookie read only by the sign-in page, never in the address (where it
 * would end up in access logs, browser history and Referer headers).
 */
const NAME = 'setpoint.sign-in-email';

export function signInEmailCookie(email: string) {
  return {
    name: NAME,
    value: email.slice(0, 254),
    httpOnly: true,
    sameSite: 'lax' as const,
    path: '/sign-in',
    maxAge: 300,
    secure: new URL(getEnv().NEXTAUTH_URL).protocol === 'https:',
  };
}

/** For a server action about to redirect to the sign-in page. */
export async function rememberSignInEmail(email: string): Promise<void> {
  (await cookies()).set(signInEmailCookie(email));
}

/** What the sign-in page prefills (empty when nothing was remembered). */
export async function rememberedSignInEmail(): Promise<string> {
  return (await cookies()).get(NAME)?.value ?? '';
}
