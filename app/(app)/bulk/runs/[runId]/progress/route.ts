import { NextResponse } from 'next/server';
import { getCurrentMember } from '@/lib/auth/session';
import { readRunProgress } from '@/lib/runs/progress';

const json = (status: number, body: unknown) =>
  NextResponse.json(body, { status, headers: { 'cache-control': 'no-store' } });

/**
 * A run's progress as JSON (read from the database, never from the service): the page's
 * refresher polls it while the run goes on, and scripts can follow a run they started.
 */
export async function GET(_request: Request, context: { params: Promise<{ runId: string }> }) {
  const member = await getCurrentMember();
  if (!member) return json(401, { message: 'Sign in again to continue.' });
  const progress = await readRunProgress(member, (await context.params).runId);
  if (!progress) return json(404, { message: 'No such run in your portfolio.' });
  return json(200, progress);
}
