import 'server-only';
import { sealData, unsealData } from 'iron-session';
import { cookies } from 'next/headers';
import { derivedKey } from '@/lib/platform/keys';
import { getEnv } from '@/lib/platform/env';

/**
 * Which invitation a company SSO sign-in is for, when it starts from the invitation's page: the
 * identity provider vouches only for an email, and an email may be invited by more than one
 * organisation of a deployment. Carried in a short-lived sealed cookie (the token's hash only,
 * never the token) to the SSO callback, where the sign-in joins that invitation's organisation.
 */
const NAME = 'setpoint.sso-invitation';
const LIFETIME_S = 600;
const key = () => derivedKey(getEnv().AUTH_SECRET, 'sso-invitation-cookie');

/** For the invitation page's server action, before it sends the person to sign in with SSO. */
export async function rememberSsoInvitation(tokenHash: string): Promise<void> {
  (await cookies()).set({
    name: NAME,
    value: await sealData({ tokenHash }, { password: key(), ttl: LIFETIME_S }),
    httpOnly: true,
    // Sent on the identity provider's redirect back, a top-level navigation.
    sameSite: 'lax',
    path: '/api/auth',
    maxAge: LIFETIME_S,
    secure: new URL(getEnv().NEXTAUTH_URL).protocol === 'https:',
  });
}

/** In the SSO callback: the invitation chosen, by its token's hash, or null. */
export async function chosenSsoInvitation(): Promise<string | null> {
  const sealed = (await cookies()).get(NAME)?.value;
  if (!sealed) return null;
  try {
    const { tokenHash } = await unsealData<{ tokenHash?: unknown }>(sealed, {
      password: key(),
      ttl: LIFETIME_S,
    });
    return typeof tokenHash === 'string' ? tokenHash : null;
  } catch {
    return null;
  }
}
