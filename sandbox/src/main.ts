import { optionsFromEnv } from './config';
import { startSandbox } from './server';

const started = Date.now();
const sandbox = await startSandbox(optionsFromEnv());
const { config } = sandbox;
const notes = [
  `fixture ${config.fixture} (${sandbox.context.store.thermostats.size} thermostats)`,
  `control API ${config.control ? `on at ${sandbox.url}/_sandbox/` : 'off (SANDBOX_CONTROL=1 enables it)'}`,
  config.allowRedirectPorts
    ? 'redirect_uri port rule RELAXED (SANDBOX_ALLOW_REDIRECT_PORTS=1, local development only)'
    : 'redirect_uri port rule enforced',
  `clients: ${config.clients.map((client) => client.clientId).join(', ')}`,
  'users: demo@sandbox.test / demo-password, other@sandbox.test / other-password',
];
console.log(`Thermostat sandbox listening on ${sandbox.url} (${Date.now() - started} ms)`);
for (const note of notes) console.log(`  ${note}`);

const stop = () => {
  sandbox.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
