import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A small OpenID Connect provider in the test process (the `oidc-provider` package, a certified
 * implementation): the company SSO an organisation signs in with. Its sign-in page asks for an
 * email and vouches for it, verified, to whoever asked; it keeps no accounts of its own, so any
 * email can sign in here, as at a real company's identity provider whose users the app knows
 * nothing about. Setpoint decides who gets in.
 */

export type RunningOidcProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Emails the provider signed in (vouched for), in order. */
  signedIn: string[];
  close(): Promise<void>;
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

const nameOf = (email: string) =>
  (email.split('@')[0] ?? email)
    .split(/[.-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(' ');

async function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Starts the provider on a free loopback port, for the app whose origin is `appUrl`. */
export async function startOidcProvider(appUrl: string): Promise<RunningOidcProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'setpoint-test';
  const clientSecret = randomBytes(24).toString('base64url');
  const signedIn: string[] = [];
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${appUrl}/api/auth/callback/oidc`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Like most company identity providers, the ID token carries the email (next-auth reads
    // the profile from the ID token).
    conformIdTokenClaims: false,
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, email: sub, email_verified: true, name: nameOf(sub) }),
    }),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });
  const oidc = provider.callback();

  // The provider's own sign-in page: an email, vouched for, and consent given with it.
  server.on('request', async (request, response) => {
    if (!request.url?.startsWith('/interaction/')) return oidc(request, response);
    try {
      const details = await provider.interactionDetails(request, response);
      if (request.method === 'GET') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(`<!doctype html><html lang="en"><title>Company sign-in</title>
<h1>Company sign-in</h1>
<form method="post" action="/interaction/${escapeHtml(details.uid)}">
<label>Work email <input type="email" name="email" required></label>
<button type="submit">Sign in</button></form></html>`);
        return;
      }
      const email = (await formBody(request)).get('email')?.trim().toLowerCase() ?? '';
      const grant = new provider.Grant({
        accountId: email,
        clientId: String(details.params.client_id),
      });
      grant.addOIDCScope(String(details.params.scope ?? 'openid'));
      const grantId = await grant.save();
      signedIn.push(email);
      await provider.interactionFinished(
        request,
        response,
        { login: { accountId: email }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    } catch (error) {
      response.writeHead(400, { 'content-type': 'text/plain' });
      response.end(`interaction failed: ${String(error)}`);
    }
  });

  return {
    issuer,
    clientId,
    clientSecret,
    signedIn,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
