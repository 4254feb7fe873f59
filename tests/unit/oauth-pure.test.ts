import { describe, expect, it } from 'vitest';
import { redact } from '@/lib/platform/log';
import { isJwt, refreshTokenLifetimeMs } from '@/lib/service/connection/lifetimes';
import { sealToken, unsealToken, VaultError } from '@/lib/service/connection/vault';

const DAY = 86_400_000;
const oldKey = { 1: 'old-key-0123456789abcdefghijklmnopqrstuv' };
const rotated = { ...oldKey, 2: 'new-key-ZYXWVUTSRQPONMLKJIHGFEDCBA98765' };

describe('token vault', () => {
  const where = { rowId: 'row-1', field: 'access' as const };
  const token = `eyJhbGciOiJIUzI1NiJ9.${'x'.repeat(7000)}.sig`;

  it('seals so the token does not appear, and unseals to the same value', async () => {
    const sealed = await sealToken(token, where, oldKey);
    expect(sealed).not.toContain('x'.repeat(20));
    expect(await unsealToken(sealed, where, oldKey)).toBe(token);
  });

  it('keeps rows sealed under an older key readable after rotation, and seals with the newest', async () => {
    const underOld = await sealToken(token, where, oldKey);
    expect(await unsealToken(underOld, where, rotated)).toBe(token);
    const underNew = await sealToken(token, where, rotated);
    await expect(unsealToken(underNew, where, oldKey)).rejects.toThrow(VaultError);
  });

  it('refuses a seal moved to another row or field, or tampered with', async () => {
    const sealed = await sealToken(token, where, oldKey);
    await expect(unsealToken(sealed, { rowId: 'row-2', field: 'access' }, oldKey)).rejects.toThrow(
      VaultError,
    );
    await expect(unsealToken(sealed, { rowId: 'row-1', field: 'refresh' }, oldKey)).rejects.toThrow(
      VaultError,
    );
    const tampered = `${sealed.slice(0, 60)}${sealed[60] === 'A' ? 'B' : 'A'}${sealed.slice(61)}`;
    await expect(unsealToken(tampered, where, oldKey)).rejects.toThrow(VaultError);
  });
});

describe('refresh-token lifetimes (the spec table, both sides of 2020-12-01)', () => {
  it.each([
    ['2020-11-30T23:59:59Z', true, 14 * DAY],
    ['2020-11-30T23:59:59Z', false, 365 * DAY],
    ['2020-12-01T00:00:00Z', true, 30 * DAY],
    ['2026-11-22T00:00:00Z', false, 30 * DAY],
  ])('at %s, first after authorization %s: %d ms', (time, first, expected) => {
    expect(
      refreshTokenLifetimeMs({ serviceTime: new Date(time), firstAfterAuthorization: first }),
    ).toBe(expected);
  });

  it('tells JWTs from opaque tokens', () => {
    const header = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
    expect(isJwt(`${header}.e30.c2ln`)).toBe(true);
    expect(isJwt('sbx_at_0123456789')).toBe(false);
    expect(isJwt('a.b.c')).toBe(false);
  });
});

describe('log redaction', () => {
  it.each([
    'Authorization: Bearer sbx_at_abcdef0123456789',
    'refresh_token=v1.sbxrtABCDEFGHIJKLMNOPQRSTUVWXYZ0123456',
    '{"access_token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc"}',
    'code=Zm9vYmFyYmF6cXV4',
  ])('removes the secret from %s', (line) => {
    const out = redact(line);
    expect(out).not.toMatch(/sbx_at_abcdef|ABCDEFGHIJKLMNOP|eyJzdWIi|Zm9vYmFy/);
  });
});
