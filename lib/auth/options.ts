import 'server-only';
import { randomBytes } from 'node:crypto';
import { cookies } from 'next/headers';
import type { AuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { z } from 'zod';
import { logActivity } from '@/lib/activity/sink';
import {
  countInvitingOrganizations,
  createSession,
  findSessionMember,
  findUserByEmail,
  isMemberAnywhere,
  resolveSsoMember,
  revokeSession,
} from '@/lib/auth/store';
import { type Env, getEnv } from '@/lib/platform/env';
import { authLogger } from './auth-log';
import {
  DEVICE_COOKIE,
  DEVICE_COOKIE_MAX_AGE_S,
  DEVICE_COOKIE_PATH,
  deviceCookieValue,
  deviceOf,
} from './device';
import { decoyHash, verifyPassword } from './password';
import { chosenSsoInvitation } from './sso-invitation';
import { clientOf, finishSignInAttempt, startSignInAttempt } from './throttle';

/** Error codes the sign-in form turns into sentences (next-auth passes them through). */
export const SIGN_IN_ERRORS = {
  invalid: 'CredentialsSignin',
  throttled: 'TooManyAttempts',
  /** The password was right, but the account belongs to no organisation (removed, or left). */
  noMembership: 'NoMembership',
  /** Company SSO vouched for an email no organisation invited or allows. */
  notInvited: 'AccessDenied',
  /** Company SSO vouched for an email several organisations invited, not saying which it joins. */
  several: 'SeveralInvitations',
} as const;

const credentialsSchema = z.object({
  email: z.email().max(254),
  password: z.string().min(1).max(1024),
});

function passwordProvider() {
  return CredentialsProvider({
    id: 'credentials',
    name: 'Email and password',
    credentials: { email: { type: 'email' }, password: { type: 'password' } },
    async authorize(credentials, req) {
      const parsed = credentialsSchema.safeParse(credentials);
      if (!parsed.success) return null;
      const { email, password } = parsed.data;
      const secret = getEnv().AUTH_SECRET;
      const jar = await cookies();
      const device = deviceOf(jar.get(DEVICE_COOKIE)?.value, email, secret);

      const attempt = await startSignInAttempt({ email, client: clientOf(req.headers), device });
      if (!attempt.allowed) throw new Error(SIGN_IN_ERRORS.throttled);

      const user = await findUserByEmail({ email });
      const valid = user?.passwordHash
        ? await verifyPassword(user.passwordHash, password)
        : await verifyPassword(await decoyHash(), password).then(() => false);
      await finishSignInAttempt({ attemptId: attempt.attemptId, succeeded: valid });
      if (!valid || !user) return null;
      if (!(await isMemberAnywhere({ email: user.email }))) {
        throw new Error(SIGN_IN_ERRORS.noMembership);
      }
      // This browser is now a known device for the account (see lib/auth/device.ts).
      jar.set(DEVICE_COOKIE, deviceCookieValue(email, secret, device ?? undefined), {
        httpOnly: true,
        sameSite: 'lax',
        secure: new URL(getEnv().NEXTAUTH_URL).protocol === 'https:',
        path: DEVICE_COOKIE_PATH,
        maxAge: DEVICE_COOKIE_MAX_AGE_S,
      });
      return { id: user.id, email: user.email, name: user.name };
    },
  });
}

function ssoProvider(env: Env): AuthOptions['providers'] {
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET) return [];
  return [
    {
      id: 'oidc',
      name: env.OIDC_DISPLAY_NAME,
      type: 'oauth',
      wellKnown: `${env.OIDC_ISSUER.replace(/\/$/, '')}/.well-known/openid-configuration`,
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET,
      authorization: { params: { scope: 'openid email profile' } },
      idToken: true,
      checks: ['pkce', 'state'],
      profile(profile: { sub: string; email?: string; name?: string; email_verified?: boolean }) {
        // An unverified email cannot identify an account: it could be anyone's.
        const email = profile.email_verified === true ? (profile.email ?? null) : null;
        return { id: profile.sub, email, name: profile.name ?? null };
      },
    },
  ];
}

/** The company SSO button's label, or null when SSO is not configured. */
export function ssoDisplayName(): string | null {
  const env = getEnv();
  return ssoProvider(env).length > 0 ? env.OIDC_DISPLAY_NAME : null;
}

/** next-auth settings, built on first use so nothing reads configuration at build time. */
export function getAuthOptions(): AuthOptions {
  const env = getEnv();
  const maxAge = env.SESSION_MAX_AGE_HOURS * 3600;
  return {
    secret: env.AUTH_SECRET,
    logger: authLogger,
    session: { strategy: 'jwt', maxAge },
    jwt: { maxAge },
    pages: { signIn: '/sign-in', error: '/sign-in' },
    providers: [passwordProvider(), ...ssoProvider(env)],
    callbacks: {
      async signIn({ account, user }) {
        if (account?.provider !== 'oidc') return true;
        // Company SSO must vouch for an email: it is how the account is found. It signs in a
        // member, an invited email (joining on first use) or an email of a domain the owner
        // allowed; never a stranger, and never into a password account, which the identity
        // provider does not own.
        if (!user.email) return false;
        const resolved = await resolveSsoMember({
          email: user.email,
          name: user.name ?? '',
          invitationTokenHash: await chosenSsoInvitation(),
        });
        if (!resolved && (await countInvitingOrganizations({ email: user.email })) > 1) {
          return `/sign-in?error=${SIGN_IN_ERRORS.several}`;
        }
        if (resolved?.joined) {
          await logActivity({
            actor: {
              orgId: resolved.joined.orgId,
              userId: resolved.user.id,
              name: resolved.user.name,
            },
            action: 'member.join',
            summary: `${resolved.user.name} joined through company SSO (${resolved.joined.how === 'invitation' ? 'invited' : 'allowed email domain'})`,
            changes: { email: resolved.user.email },
          });
        }
        return resolved !== null;
      },
      async jwt({ token, user, account }) {
        if (!user || !account) return token;
        // The identity provider's user id is its own: the account is the one with this email.
        const userId =
          account.provider === 'oidc'
            ? (await findUserByEmail({ email: user.email ?? '' }))?.id
            : user.id;
        if (!userId) throw new Error('signed-in account not found');
        // The session row is what the data layer checks on every request; see lib/auth/session.ts.
        const sessionId = randomBytes(24).toString('base64url');
        await createSession({
          id: sessionId,
          userId,
          expiresAt: new Date(Date.now() + maxAge * 1000),
        });
        const member = await findSessionMember({ sessionId });
        if (member) {
          await logActivity({
            actor: member,
            action: 'member.sign_in',
            summary: `${member.name} signed in${account.provider === 'oidc' ? ' with company SSO' : ''}`,
          });
        }
        return { sub: userId, sid: sessionId, name: user.name, email: user.email };
      },
      session({ session, token }) {
        return { ...session, user: { name: token.name, email: token.email } };
      },
    },
    events: {
      async signOut({ token }) {
        if (typeof token?.sid === 'string') await revokeSession({ sessionId: token.sid });
      },
    },
  };
}
