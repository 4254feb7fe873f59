import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Webhooks as the Standard Webhooks specification has them, signed by its own package: a secret
 * `whsec_` + base64, and each request's `webhook-id` (the notice's id, the same on every retry,
 * so a receiver can drop a repeat), `webhook-timestamp` and `webhook-signature` headers.
 */

/** A new endpoint's signing secret: 32 random bytes, as the specification writes them. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** How long an endpoint has to answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export type WebhookResult = { ok: true; status: number } | { ok: false; reason: string };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why an address cannot be a webhook endpoint, or null when it can: http or https only (https
 * in production, but for this machine's own address), with no user name or password in it.
 */
export function webhookUrlProblem(url: string, production: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Enter a full address, such as https://example.com/setpoint-hook.';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return 'Use an https:// address.';
  }
  if (parsed.username || parsed.password) {
    return 'Leave the user name and password out of the address: requests are signed instead.';
  }
  if (production && parsed.protocol === 'http:' && !LOOPBACK.has(parsed.hostname)) {
    return 'Use an https:// address: notices must not cross the network unencrypted.';
  }
  return null;
}

/**
 * Sends one signed request and says how the endpoint answered: any 2xx is delivered; a
 * redirect is not followed (the signed request is for this address only); the body of the
 * answer is never read or kept.
 */
export async function postWebhook(input: {
  url: string;
  secret: string;
  msgId: string;
  payload: string;
  timeoutMs?: number;
}): Promise<WebhookResult> {
  const timestamp = new Date();
  const signature = new Webhook(input.secret).sign(input.msgId, timestamp, input.payload);
  try {
    const response = await fetch(input.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Setpoint-Webhooks/1.0',
        'webhook-id': input.msgId,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: input.payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(input.timeoutMs ?? WEBHOOK_TIMEOUT_MS),
    });
    await response.body?.cancel().catch(() => {});
    if (response.status >= 200 && response.status < 300)
      return { ok: true, status: response.status };
    const redirect = response.status >= 300 && response.status < 400;
    return {
      ok: false,
      reason: `The endpoint answered ${response.status}${redirect ? ' (a redirect, which is not followed)' : ''}.`,
    };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError' || name === 'AbortError') {
      return {
        ok: false,
        reason: `The endpoint did not answer within ${Math.round((input.timeoutMs ?? WEBHOOK_TIMEOUT_MS) / 1000)} s.`,
      };
    }
    const code = (error as { cause?: { code?: unknown } }).cause?.code;
    return {
      ok: false,
      reason: `Could not reach the endpoint${typeof code === 'string' ? ` (${code.replace(/[^\w-]/g, '')})` : ''}.`,
    };
  }
}
