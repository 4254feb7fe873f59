import 'server-only';
import { notFound } from 'next/navigation';
import { requireMember } from '@/lib/auth/session';
import type { Member } from '@/lib/auth/store';
import type { ScopedThermostat } from '@/lib/portfolio/store';
import type { ThermostatKey } from '@/lib/db/scope';
import { scopedThermostat } from '@/lib/portfolio/guard';

/**
 * How every page of one thermostat opens (its layout too): the signed-in member, the thermostat
 * the address names in their scope (a 404 otherwise), and the key the service calls take. The
 * lookup is cached per request, so the layout and its page share it.
 */
export async function openThermostatPage(
  params: Promise<{ thermostatId: string }>,
): Promise<{ member: Member; thermostat: ScopedThermostat; on: ThermostatKey }> {
  const member = await requireMember();
  const { thermostatId } = await params;
  const thermostat = await scopedThermostat(member, thermostatId);
  if (!thermostat) notFound();
  return { member, thermostat, on: { orgId: member.orgId, thermostatId: thermostat.thermostatId } };
}
