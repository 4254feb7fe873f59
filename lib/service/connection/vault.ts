import { sealData, unsealData } from 'iron-session';

/**
 * The token vault's encryption: iron-session seals (AES-256-CBC + HMAC-SHA-256) under the key
 * list in TOKEN_KEYS. The highest key id seals; every listed id unseals, so keys rotate by adding
 * a higher id and dropping the old one once nothing sealed under it remains. Each seal names the
 * row and field it belongs to, so a sealed value copied into another row does not unseal there.
 */
export type TokenKeys = Record<string, string>;
/** Which secret of its row a sealed value is: a connection's tokens, a webhook's or lease inbox's signing secret. */
export type TokenField = 'access' | 'refresh' | 'webhook_secret' | 'lease_secret';

type Sealed = { v: string; row: string; field: TokenField };

export class VaultError extends Error {
  override name = 'VaultError';
}

export function sealToken(
  token: string,
  where: { rowId: string; field: TokenField },
  keys: TokenKeys,
): Promise<string> {
  const payload: Sealed = { v: token, row: where.rowId, field: where.field };
  return sealData(payload, { password: keys, ttl: 0 });
}

export async function unsealToken(
  sealed: string,
  where: { rowId: string; field: TokenField },
  keys: TokenKeys,
): Promise<string> {
  const payload = await unsealData<Partial<Sealed>>(sealed, { password: keys, ttl: 0 });
  if (
    typeof payload.v !== 'string' ||
    payload.row !== where.rowId ||
    payload.field !== where.field
  ) {
    throw new VaultError(`The sealed ${where.field} of row ${where.rowId} cannot be unsealed.`);
  }
  return payload.v;
}
