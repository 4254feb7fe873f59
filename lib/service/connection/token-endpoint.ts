import 'server-only';
import { z } from 'zod';
import { type Env, getEnv, serviceRedirectUri } from '@/lib/platform/env';
import { logWarning } from '@/lib/platform/log';

/** The token response, strict on what the spec states, tolerant of extra fields. */
export const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  // Only bearer tokens are sent back (RFC 6750; the scheme is case-insensitive): any other
  // type would go verbatim into an Authorization header, so it is a malformed answer.
  token_type: z
    .string()
    .refine((type) => type.toLowerCase() === 'bearer', 'token_type must be bearer')
    .transform((): 'Bearer' => 'Bearer'),
  expires_in: z.number().int().positive(),
  refresh_token: z.string().min(1),
  scope: z.string(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

const oauthErrorSchema = z.looseObject({
  error: z.string(),
  error_description: z.string().optional(),
});

export type TokenErrorKind =
  /** The code or refresh token is no good (invalid_grant, authorization_expired): start over. */
  | 'refused'
  /** Anything else: 429, 5xx, timeouts, network failures, slow_down, an unexpected answer. */
  | 'unavailable'
  /** The service answered something that is not a token response. */
  | 'invalid_response';

export class TokenEndpointError extends Error {
  override name = 'TokenEndpointError';
  constructor(
    readonly kind: TokenErrorKind,
    readonly status: number | null,
    readonly code: string | null,
  ) {
    super(`Token endpoint: ${kind}${code ? ` (${code})` : ''}${status ? ` HTTP ${status}` : ''}`);
  }
}

export type TokenResult = {
  tokens: TokenResponse;
  /** The service's own time (its Date header), for its lifetime rules; our clock otherwise. */
  serviceTime: Date;
};

/** Exchanges an authorization code. Parameters go in the query string, as the spec says. */
export function exchangeCode(code: string, env: Env = getEnv()): Promise<TokenResult> {
  return callTokenEndpoint(env, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: serviceRedirectUri(env),
    client_id: env.SERVICE_CLIENT_ID,
  });
}

export function refreshAccessToken(
  refreshToken: string,
  env: Env = getEnv(),
): Promise<TokenResult> {
  return callTokenEndpoint(env, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: env.SERVICE_CLIENT_ID,
  });
}

async function callTokenEndpoint(env: Env, params: Record<string, string>): Promise<TokenResult> {
  const url = new URL(env.SERVICE_TOKEN_PATH, env.SERVICE_BASE_URL);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  if (env.SERVICE_JWT) url.searchParams.set('service_type', 'jwt');
  // The version 2 path is a GET (sandbox/README.md documents it); the classic one is a POST.
  const method = env.SERVICE_TOKEN_PATH === '/api/v2/token' ? 'GET' : 'POST';

  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(env.SERVICE_TIMEOUT_MS),
      cache: 'no-store',
    });
  } catch (error) {
    logWarning(`token endpoint unreachable (${params.grant_type})`, String(error));
    throw new TokenEndpointError('unavailable', null, null);
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) {
    const parsed = tokenResponseSchema.safeParse(body);
    if (!parsed.success) {
      logWarning(`token endpoint sent an invalid token response (${params.grant_type})`);
      throw new TokenEndpointError('invalid_response', response.status, null);
    }
    const dated = Date.parse(response.headers.get('date') ?? '');
    return { tokens: parsed.data, serviceTime: Number.isNaN(dated) ? new Date() : new Date(dated) };
  }
  const error = oauthErrorSchema.safeParse(body);
  const code = error.success ? error.data.error : null;
  logWarning(
    `token endpoint refused the ${params.grant_type} grant with HTTP ${response.status} ${code ?? ''}`,
  );
  // Only the service's word that the grant itself is dead ends a connection; anything else (a
  // wrong path, a proxy's 403, invalid_client, 5xx) may pass, so the tokens are kept.
  const refused = code === 'invalid_grant' || code === 'authorization_expired';
  throw new TokenEndpointError(refused ? 'refused' : 'unavailable', response.status, code);
}
