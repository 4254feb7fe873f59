import 'server-only';
import { z } from 'zod';
import { getEnv } from '@/lib/platform/env';
import type { KnownBuilding } from './add';
import type { PortfolioEntry } from './entries';

/**
 * The sandbox's demo portfolio, so a demo starts with buildings in one click. Only offered
 * against a service on this machine: the production service has no such listing, and the
 * sandbox answers only with its control API on (as `npm run dev` starts it).
 */
const addressSchema = z
  .union([
    z.string(),
    z.object({
      street: z.string().optional(),
      city: z.string().optional(),
      region: z.string().optional(),
      postalCode: z.string().optional(),
    }),
  ])
  .optional()
  .transform((address) => {
    if (!address || typeof address === 'string') return address ?? '';
    const place = [address.region, address.postalCode].filter(Boolean).join(' ');
    return [address.street, address.city, place].filter(Boolean).join(', ');
  });

const portfolioSchema = z.object({
  buildings: z.array(
    z.object({
      buildingId: z.string(),
      name: z.string(),
      timeZone: z.string(),
      address: addressSchema,
    }),
  ),
  thermostats: z.array(
    z.object({ thermostatId: z.string(), name: z.string(), buildingId: z.string() }),
  ),
});

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isSandboxService(): boolean {
  return LOOPBACK.has(new URL(getEnv().SERVICE_BASE_URL).hostname);
}

export async function fetchSandboxDemoPortfolio(): Promise<{
  entries: PortfolioEntry[];
  known: Map<string, KnownBuilding>;
} | null> {
  if (!isSandboxService()) return null;
  const url = new URL('/_sandbox/portfolio?user=demo', getEnv().SERVICE_BASE_URL);
  const response = await fetch(url, { signal: AbortSignal.timeout(5000), cache: 'no-store' }).catch(
    () => null,
  );
  if (!response?.ok) return null;
  const parsed = portfolioSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) return null;
  return {
    // The sandbox's listing says which building each is in, as a manager's CSV would.
    entries: parsed.data.thermostats.map((t, index) => ({
      line: index + 1,
      thermostatId: t.thermostatId,
      unitLabel: t.name,
      building: t.buildingId,
    })),
    known: new Map(
      parsed.data.buildings.map((b) => [
        b.buildingId,
        { name: b.name, timeZone: b.timeZone, address: b.address },
      ]),
    ),
  };
}
