import { type NextRequest, NextResponse } from 'next/server';
import { attentionByThermostat } from '@/lib/attention/list';
import { getCurrentMember } from '@/lib/auth/session';
import { findBuilding } from '@/lib/portfolio/store';
import { listBuildingRows } from '@/lib/readings/store';
import { buildingRowsCsv } from '@/lib/readings/csv';
import { parseBuildingView } from '@/lib/readings/view';
import { buildingIdSchema } from '@/lib/service/schemas';
import { todayIn } from '@/lib/platform/time-format';

/** At most this many rows per export (a building is far smaller). */
const MAX_ROWS = 10_000;

/**
 * A building's table as CSV, in the member's scope: the same search, filters and order as the
 * page (from the address), every matching row rather than one page, from the readings store.
 */
export async function GET(
  request: NextRequest,
  { params }: { params: Promise<{ buildingId: string }> },
) {
  const member = await getCurrentMember();
  if (!member) return new NextResponse('Sign in to export a building.', { status: 401 });
  const { buildingId } = await params;
  const building = buildingIdSchema.safeParse(buildingId).success
    ? await findBuilding({ scope: member, buildingId })
    : null;
  if (!building) return new NextResponse('No such building.', { status: 404 });
  const view = parseBuildingView(Object.fromEntries(request.nextUrl.searchParams));
  // "Needs attention" keeps the rows Needs attention lists, as the page does.
  const attention = view.attention
    ? [...(await attentionByThermostat({ scope: member, buildingId: building.buildingId })).keys()]
    : undefined;
  const rows = await listBuildingRows({
    scope: member,
    buildingId: building.buildingId,
    view,
    limit: MAX_ROWS,
    attention,
  });
  const day = todayIn(building.timeZone);
  const name = `${building.name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'building'}-${day}.csv`;
  const ascii = name.replace(/[^A-Za-z0-9.-]+/g, '-');
  return new NextResponse(
    buildingRowsCsv({ rows, unit: member.temperatureUnit, timeZone: building.timeZone }),
    {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        'cache-control': 'no-store',
      },
    },
  );
}
