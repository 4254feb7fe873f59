// Applies the committed migrations to the configured database (`npm run db:migrate`). The app
// also applies them on start-up; this script is for deployments that migrate as a separate step.
import { configuredTarget, openDatabase } from '../lib/db/client';
import { getEnv } from '../lib/platform/env';

const target = configuredTarget(getEnv());
const handle = await openDatabase(target);
await handle.close();
console.log(`Migrations applied (${target.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}).`);
