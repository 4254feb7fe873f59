import 'server-only';
import { notYours } from '@/lib/access/not-yours';
import type { Member } from '@/lib/auth/store';
import { MALFORMED } from '@/lib/bulk/form';
import { MAX_PER_RUN } from '@/lib/runs/steps';
import {
  type Building,
  findBuilding,
  listThermostats,
  type PortfolioThermostat,
} from '@/lib/portfolio/store';
import { buildingIdSchema } from '@/lib/service/schemas';
import { resolveGroup } from './store';

/**
 * The thermostats a form selects, with or without JavaScript: the ticked thermostats
 * (`thermostatIds`, one field each), whole buildings ticked (`allIn`, for a browser without
 * JavaScript, whose "select all" cannot tick the boxes itself), groups ticked (`groupIds`, their
 * thermostats within the member's scope, the same way), and the reviewed selection carried to the
 * confirmation (`selection`, comma-separated). Bulk changes, template plans and groups read it.
 */

/** At most this many whole buildings per post (a portfolio has fewer). */
const MAX_BUILDINGS = 500;
/** At most this many groups per post. */
const MAX_GROUPS = 100;

/**
 * The selected thermostat ids in the order posted, each once, whole buildings and groups
 * expanded to their thermostats (a group's within the member's scope only); or why not: a post
 * that is malformed (not text, far too many), a whole building outside the member's scope, or a
 * group not of their organisation.
 */
export async function selectionFromForm(
  member: Member,
  form: FormData,
): Promise<{ ok: true; ids: string[] } | { ok: false; message: string }> {
  const malformed = { ok: false as const, message: MALFORMED };
  const raw = [...form.getAll('thermostatIds'), ...form.getAll('selection')];
  const wholeBuildings = form.getAll('allIn');
  // An empty value is the "no group" choice of a select.
  const groups = form.getAll('groupIds').filter((value) => value !== '');
  if ([...raw, ...wholeBuildings, ...groups].some((value) => typeof value !== 'string')) {
    return malformed;
  }
  const ids = (raw as string[]).flatMap((value) => value.split(',')).map((id) => id.trim());
  if (
    ids.length > MAX_PER_RUN * 2 ||
    wholeBuildings.length > MAX_BUILDINGS ||
    groups.length > MAX_GROUPS
  ) {
    return malformed;
  }
  const selection = new Set(ids.filter(Boolean));
  for (const value of new Set(wholeBuildings as string[])) {
    const building = buildingIdSchema.safeParse(value);
    if (!building.success || !(await findBuilding({ scope: member, buildingId: building.data }))) {
      return { ok: false, message: notYours('building') };
    }
    for (const t of await listThermostats({ scope: member, buildingId: building.data })) {
      selection.add(t.thermostatId);
    }
  }
  for (const groupId of new Set(groups as string[])) {
    const members = await resolveGroup({ scope: member, groupId });
    if (!members) return { ok: false, message: notYours('group') };
    for (const id of members) selection.add(id);
  }
  return { ok: true, ids: [...selection] };
}

/**
 * The member's buildings, each with its thermostats, as a selection form's picker lists them
 * (in the order given).
 */
export function thermostatsByBuilding(
  buildings: readonly Pick<Building, 'buildingId' | 'name'>[],
  thermostats: readonly Pick<PortfolioThermostat, 'thermostatId' | 'buildingId' | 'unitLabel'>[],
): { buildingId: string; name: string; thermostats: { thermostatId: string; label: string }[] }[] {
  return buildings.map((building) => ({
    buildingId: building.buildingId,
    name: building.name,
    thermostats: thermostats
      .filter((t) => t.buildingId === building.buildingId)
      .map((t) => ({ thermostatId: t.thermostatId, label: t.unitLabel })),
  }));
}

/**
 * The thermostats a page's address asks its selection form to tick (`?ids=…`, once or more:
 * rows ticked elsewhere, such as a building's page). Not checked: tick only `inScope` of them.
 */
export function askedIdsOf(ids: string | string[] | undefined): Set<string> {
  return new Set(typeof ids === 'string' ? [ids] : (ids ?? []));
}

/** Which of the member's thermostats are asked for, in their order: the ones a form ticks. */
export function inScope(
  thermostats: readonly Pick<PortfolioThermostat, 'thermostatId'>[],
  asked: ReadonlySet<string>,
): string[] {
  return thermostats.filter((t) => asked.has(t.thermostatId)).map((t) => t.thermostatId);
}
