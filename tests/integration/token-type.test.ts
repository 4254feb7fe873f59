import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/platform/env';
import { exchangeCode, TokenEndpointError } from '@/lib/service/connection/token-endpoint';

// A token endpoint that answers whatever token_type the test sets: only bearer goes through,
// and it is kept as the canonical `Bearer`, whatever its case, for the Authorization header.
let server: Server;
let tokenType = 'Bearer';
let baseUrl = '';

beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        access_token: 'access-1',
        token_type: tokenType,
        expires_in: 3600,
        refresh_token: 'refresh-1',
        scope: 'smartWrite',
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const env = () =>
  parseEnv({
    NODE_ENV: 'production',
    AUTH_SECRET: 'k3J9x-Qw81_zPz0vLrT5mN2bYc7dHf4gAe6s',
    TOKEN_KEYS: '1:Vt8-pX2qL0_wNc5rGz7mKj4sYb1hDf9eAu3o',
    NEXTAUTH_URL: 'https://setpoint.example.com',
    SERVICE_BASE_URL: baseUrl,
  });

describe('token_type of a token response', () => {
  it.each(['Bearer', 'bearer', 'BEARER'])('accepts %s as the bearer scheme', async (type) => {
    tokenType = type;
    const { tokens } = await exchangeCode('code', env());
    expect(tokens.token_type).toBe('Bearer');
  });

  it.each(['MAC', 'DPoP', 'Basic', 'Bearer x', ''])(
    'refuses %j as a malformed answer',
    async (type) => {
      tokenType = type;
      const error = await exchangeCode('code', env()).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TokenEndpointError);
      expect(error).toMatchObject({ kind: 'invalid_response' });
    },
  );
});
