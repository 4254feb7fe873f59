import { type NextRequest, NextResponse } from 'next/server';
import { z } from 'zod';
import { getCurrentMember } from '@/lib/auth/session';
import { startBulkRun } from '@/lib/bulk/runs';
import { getEnv } from '@/lib/platform/env';
import { fromOwnOrigin } from '@/lib/platform/request-origin';
import { CONFIGURATION_FIELDS } from '@/lib/settings/configuration';

const bodySchema = z.object({
  thermostatIds: z.unknown(),
  values: z.object(
    Object.fromEntries(CONFIGURATION_FIELDS.map((field) => [field, z.string().max(32).optional()])),
  ),
});

const json = (status: number, body: unknown) =>
  NextResponse.json(body, { status, headers: { 'cache-control': 'no-store' } });

/**
 * Starts a bulk run from a script (JSON in: `thermostatIds`, `values` as the form has them) and
 * answers at once with 202 and where to follow it; the run goes on as a job, whoever waits. The
 * page starts runs through its server actions; both go through the same checks in lib/bulk.
 */
export async function POST(request: NextRequest) {
  if (!fromOwnOrigin(request.headers, getEnv().NEXTAUTH_URL)) {
    return json(403, { message: 'Cross-origin request refused.' });
  }
  const member = await getCurrentMember();
  if (!member) return json(401, { message: 'Sign in again to continue.' });

  const parsed = bodySchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) {
    return json(400, { message: parsed.error.issues[0]?.message ?? 'Malformed request.' });
  }
  const started = await startBulkRun({ member, ...parsed.data });
  if (!started.ok) {
    const { code, ...answer } = started;
    return json(code === 'forbidden' ? 403 : 422, answer);
  }
  const url = `/bulk/runs/${started.run.id}`;
  return json(202, { runId: started.run.id, url, progress: `${url}/progress` });
}
