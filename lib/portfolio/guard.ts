import 'server-only';
import { cache } from 'react';
import { findThermostat, type PublicUser } from '@/lib/db/queries';
import { thermostatIdSchema } from '@/lib/thermostat-api/schemas';

/**
 * The thermostat an action was asked to change, if it is a well-formed id in this manager's
 * portfolio; null otherwise, before anything reaches the service. Cached per request, so a
 * layout and its page share one lookup.
 */
export const ownedThermostat = cache(async (user: PublicUser, thermostatId: unknown) => {
  const id = thermostatIdSchema.safeParse(thermostatId);
  if (!id.success) return null;
  return findThermostat({ userId: user.id, thermostatId: id.data });
});
