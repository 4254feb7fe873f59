import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import {
  hostProblem,
  NonPublicAddressError,
  nonPublicAddressKind,
  publicOnlyLookup,
  resolvedAddressProblem,
} from './public-addresses';

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

/**
 * How an endpoint answered. `refused`: Setpoint did not send it at all (an address that is not
 * the public internet's), and trying again will not change that.
 */
export type WebhookResult =
  | { ok: true; status: number }
  | { ok: false; reason: string; refused?: boolean };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Said after each refusal of an address that is not public. */
const PUBLIC_ONLY = 'Setpoint sends webhooks only to public internet addresses.';

/**
 * Why an address cannot be a webhook endpoint, or null when it can: http or https only (https
 * in production, but for this machine's own address when private hosts are allowed), with no
 * user name or password in it, and (unless `allowPrivateHosts`) a host that is not this machine,
 * a private or link-local address or a local network's name. Read from the address alone:
 * `webhookHostProblem` asks DNS, and delivery checks the address it connects to.
 */
export function webhookUrlProblem(
  url: string,
  options: { production: boolean; allowPrivateHosts: boolean },
): string | null {
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
  if (!options.allowPrivateHosts) {
    const problem = hostProblem(parsed.hostname);
    if (problem) return `Use a public internet address: ${problem}. ${PUBLIC_ONLY}`;
  }
  if (options.production && parsed.protocol === 'http:' && !LOOPBACK.has(parsed.hostname)) {
    return 'Use an https:// address: notices must not cross the network unencrypted.';
  }
  return null;
}

/**
 * Why a webhook address's host, as DNS resolves it now, cannot be an endpoint (one of its
 * addresses is not public), or null. A name that does not resolve yet passes: delivery checks
 * again on every connection.
 */
export async function webhookHostProblem(url: string): Promise<string | null> {
  const problem = await resolvedAddressProblem(new URL(url).hostname);
  return problem ? `Use a public internet address: ${problem}. ${PUBLIC_ONLY}` : null;
}

/**
 * Sends one signed request and says how the endpoint answered: any 2xx is delivered; a
 * redirect is not followed (the signed request is for this address only); the body of the
 * answer is never read or kept. Unless `allowPrivateHosts`, only to the public internet: an IP
 * address in the URL is checked before, and a name's addresses as the connection is made (so
 * DNS that changed since the endpoint was saved is caught); a refusal is `refused`.
 */
export async function postWebhook(input: {
  url: string;
  secret: string;
  msgId: string;
  payload: string;
  timeoutMs?: number;
  allowPrivateHosts?: boolean;
}): Promise<WebhookResult> {
  const timeoutMs = input.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return { ok: false, refused: true, reason: 'Not sent: the address is not a valid URL.' };
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
    return {
      ok: false,
      refused: true,
      reason: 'Not sent: only http(s) addresses without a user name or password are used.',
    };
  }
  const allowPrivate = input.allowPrivateHosts ?? false;
  if (!allowPrivate && isIP(url.hostname.replace(/^\[(.*)\]$/, '$1'))) {
    // An address in the URL is connected to as it is, never looked up: checked here.
    const kind = nonPublicAddressKind(url.hostname);
    if (kind) {
      return {
        ok: false,
        refused: true,
        reason: `Not sent: ${url.hostname} is ${kind}. ${PUBLIC_ONLY}`,
      };
    }
  }
  const timestamp = new Date();
  const signature = new Webhook(input.secret).sign(input.msgId, timestamp, input.payload);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<WebhookResult>((resolve) => {
    const request = send(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(input.payload),
        'user-agent': 'Setpoint-Webhooks/1.0',
        'webhook-id': input.msgId,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      },
      // One connection per request, closed after it: never a pooled socket.
      agent: false,
      ...(allowPrivate ? {} : { lookup: publicOnlyLookup }),
    });
    const timer = setTimeout(() => {
      request.destroy(Object.assign(new Error('timed out'), { name: 'TimeoutError' }));
    }, timeoutMs);
    request.on('response', (response) => {
      clearTimeout(timer);
      const status = response.statusCode ?? 0;
      // The body is never read: the connection goes with it.
      response.destroy();
      request.destroy();
      if (status >= 200 && status < 300) return resolve({ ok: true, status });
      resolve({ ok: false, reason: answerWords(status) });
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      resolve(failure(error, timeoutMs));
    });
    request.end(input.payload);
  });
}

/** A request that ended in an error, in words. */
function failure(error: Error, timeoutMs: number): WebhookResult {
  if (error instanceof NonPublicAddressError) {
    return {
      ok: false,
      refused: true,
      reason: `Not sent: ${error.message}. ${PUBLIC_ONLY}`,
    };
  }
  if (error.name === 'TimeoutError' || error.name === 'AbortError') {
    return {
      ok: false,
      reason: `The endpoint did not answer within ${Math.round(timeoutMs / 1000)} s.`,
    };
  }
  const raw = (error as { code?: unknown }).code;
  const code = typeof raw === 'string' ? raw.replace(/[^\w-]/g, '') : '';
  const why = UNREACHABLE.find(([codes]) => codes.test(code))?.[1];
  return {
    ok: false,
    reason: `Could not reach the endpoint${why ? `: ${why}` : ''}${code ? ` (${code})` : ''}.`,
  };
}

/** An answer other than 2xx in words, its status kept for whoever runs the endpoint. */
function answerWords(status: number): string {
  if (status >= 300 && status < 400) {
    return `The endpoint answered with a redirect (HTTP ${status}), which is not followed.`;
  }
  if (status >= 400 && status < 500) return `The endpoint refused it (HTTP ${status}).`;
  if (status >= 500) return `The endpoint failed with a server error (HTTP ${status}).`;
  return `The endpoint answered HTTP ${status}.`;
}

/** Why a connection failed, by its error code. */
const UNREACHABLE: [RegExp, string][] = [
  [/^ECONNREFUSED$/, 'nothing answered at that address'],
  [/^(ENOTFOUND|EAI_AGAIN)$/, 'its name was not found'],
  [/^(ECONNRESET|EPIPE)$/, 'the connection was dropped'],
  [/^(EHOSTUNREACH|ENETUNREACH)$/, 'its network could not be reached'],
  [/CERT|SELF_SIGNED|UNABLE_TO_VERIFY/, 'its certificate was not accepted'],
];
