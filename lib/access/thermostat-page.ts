import 'server-only';
import { notFound, redirect } from 'next/navigation';
import { requireMember } from '@/lib/auth/session';
import type { Member } from '@/lib/auth/store';
import type { ScopedThermostat } from '@/lib/portfolio/store';
import type { ThermostatKey } from '@/lib/db/scope';
import { scopedThermostat } from '@/lib/portfolio/guard';
import { formerUnitOf } from '@/lib/portfolio/units';
import { thermostatIdSchema } from '@/lib/service/schemas';

/**
 * How every page of one thermostat opens (its layout too): the signed-in member, the thermostat
 * the address names in their scope (a 404 otherwise, or the unit of one replaced since: an old
 * link, an email's, leads there), and the key the service calls take. The
 * lookup is cached per request, so the layout and its page share it.
 */
export async function openThermostatPage(
  params: Promise<{ thermostatId: string }>,
): Promise<{ member: Member; thermostat: ScopedThermostat; on: ThermostatKey }> {
  const member = await requireMember();
  const { thermostatId } = await params;
  const thermostat = await scopedThermostat(member, thermostatId);
  if (!thermostat) {
    const id = thermostatIdSchema.safeParse(thermostatId);
    const unitId = id.success ? await formerUnitOf({ scope: member, thermostatId: id.data }) : null;
    if (unitId) redirect(`/units/${unitId}`);
    notFound();
  }
  return { member, thermostat, on: { orgId: member.orgId, thermostatId: thermostat.thermostatId } };
}
