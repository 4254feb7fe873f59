// `npm start`: Setpoint's production server. It is `next start` plus one thing Next.js does not
// do: it works out each request's client address from the socket (and TRUSTED_PROXIES) and
// hands it to the app in a header of its own, replacing any value a client sent. Next.js passes
// a client's X-Forwarded-For through untouched, so sign-in throttling cannot use that.
//
// Run by Node 24 as TypeScript (type stripping): `node server.ts [-p PORT] [-H HOST]`.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import next from 'next';
import {
  CLIENT_ADDRESS_HEADER,
  CLIENT_ADDRESS_MARK,
  clientAddressOf,
  parseTrustedProxies,
} from './lib/platform/client-address.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', short: 'p' },
    hostname: { type: 'string', short: 'H' },
  },
});
const port = Number(values.port ?? process.env.PORT ?? 3000);
// Not $HOSTNAME: shells and containers set it to the machine's name.
const hostname = values.hostname ?? '0.0.0.0';
// As `next start` does: a production server, whatever the shell had.
Object.assign(process.env, { NODE_ENV: 'production' });

let trustedProxies: number;
try {
  trustedProxies = parseTrustedProxies(process.env.TRUSTED_PROXIES);
} catch (error) {
  console.error(`\nSetpoint cannot start: invalid configuration.\n- ${(error as Error).message}\n`);
  process.exit(1);
}

// The app trusts CLIENT_ADDRESS_HEADER only in a process where this mark is set.
(globalThis as Record<symbol, unknown>)[CLIENT_ADDRESS_MARK] = true;

const app = next({ dev: false, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((request, response) => {
  request.headers[CLIENT_ADDRESS_HEADER] = clientAddressOf({
    socketAddress: request.socket.remoteAddress,
    forwardedFor: request.headers['x-forwarded-for'],
    trustedProxies,
  });
  handle(request, response);
});
server.listen(port, hostname, () => {
  const proxies = trustedProxies === 0 ? 'none' : String(trustedProxies);
  // "Ready", as next start says it: scripts and specs wait for that word.
  console.log(`✓ Ready: Setpoint on http://${hostname}:${port} (trusted proxies: ${proxies})`);
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
