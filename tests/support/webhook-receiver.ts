import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { until } from './wait';

/**
 * A webhook receiver for tests, as a careful integrator writes one: it verifies each request's
 * signature with the Standard Webhooks package (which also refuses a timestamp more than five
 * minutes off), refuses a message id it has already accepted (a replay), and answers with the
 * status the test scripts (`failNext`, `failAlways`).
 */
export type Received = {
  id: string;
  timestamp: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** What it answered. */
  status: number;
  /** Why it refused it, when it did. */
  refusal: string | null;
};

export type TestReceiver = {
  url: string;
  received: Received[];
  setSecret(secret: string): void;
  /** Answers the next `count` requests with `status` (after verifying them). */
  failNext(count: number, status?: number): void;
  failAlways(on: boolean): void;
  waitFor(count: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
};

export async function startWebhookReceiver(): Promise<TestReceiver> {
  let secret = '';
  let failing = 0;
  let failStatus = 500;
  let always = false;
  const accepted = new Set<string>();
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(request.headers['webhook-id'] ?? '');
      const answer = (status: number, refusal: string | null) => {
        received.push({
          id,
          timestamp: Number(request.headers['webhook-timestamp']),
          headers: request.headers,
          body,
          status,
          refusal,
        });
        response.writeHead(status).end();
      };
      try {
        new Webhook(secret).verify(body, request.headers as Record<string, string>);
      } catch (error) {
        return answer(400, error instanceof Error ? error.message : 'unverified');
      }
      if (accepted.has(id)) return answer(409, 'replayed');
      if (always || failing > 0) {
        failing = Math.max(0, failing - 1);
        return answer(failStatus, 'scripted failure');
      }
      accepted.add(id);
      answer(204, null);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/setpoint`,
    received,
    setSecret(value) {
      secret = value;
    },
    failNext(count, status = 500) {
      failing = count;
      failStatus = status;
    },
    failAlways(on) {
      always = on;
      failStatus = 500;
    },
    async waitFor(count, ms = 20_000) {
      await until(
        () => received.length >= count,
        ms,
        `${count} requests (${received.length} came)`,
      );
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
