import { type NextRequest, NextResponse } from 'next/server';
import { can, refusal } from '@/lib/auth/permissions';
import { getCurrentMember } from '@/lib/auth/session';
import { getEnv } from '@/lib/platform/env';
import { logWarning } from '@/lib/platform/log';
import {
  ADD_SOURCES,
  type AddSource,
  type AddState,
  type ImportEvent,
  lineCount,
  readAddRequest,
  runAddRequest,
} from '@/lib/portfolio/add-request';
import { fromOwnOrigin } from '@/lib/platform/request-origin';

const json = (status: number, state: AddState) =>
  NextResponse.json(state, { status, headers: { 'cache-control': 'no-store' } });

/**
 * The add forms post here when JavaScript runs (`?from=list|csv|demo`, the form's own fields):
 * after the same checks as the forms' actions, the answer streams as NDJSON, first how many lines
 * there are, then each line's result the moment the service has answered for it, then the
 * summary. A long import shows its progress line by line instead of one "Importing…" for a
 * minute; lines beyond the service's rate limit wait for its next minute, and the stream says so
 * (how long, how many lines) when the wait begins and every few seconds until it ends. The work does not depend on the page staying open: it finishes, and is logged, either way.
 */
export async function POST(request: NextRequest) {
  if (!fromOwnOrigin(request.headers, getEnv().NEXTAUTH_URL)) {
    return json(403, { status: 'error', message: 'Cross-origin request refused.' });
  }
  const member = await getCurrentMember();
  if (!member) return json(401, { status: 'error', message: 'Sign in again to continue.' });
  if (!can(member, 'manage_portfolio')) {
    return json(403, { status: 'error', message: refusal(member.role, 'manage_portfolio') });
  }
  const from = request.nextUrl.searchParams.get('from');
  if (!ADD_SOURCES.includes(from as AddSource)) {
    return json(400, { status: 'error', message: 'Malformed request.' });
  }
  const form = await request.formData().catch(() => null);
  if (!form) return json(400, { status: 'error', message: 'Malformed request.' });
  const read = await readAddRequest(from as AddSource, form, member.orgId);
  if (!read.ok) return json(422, read.state);

  const encoder = new TextEncoder();
  let open = true;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (event: ImportEvent) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
        } catch {
          open = false;
        }
      };
      send({ total: lineCount(read.request) });
      runAddRequest(
        member,
        read.request,
        (row) => send({ row }),
        (waiting) => send({ waiting }),
      )
        .then((state) => send({ done: state }))
        .catch((error: unknown) => {
          logWarning('import stopped', String(error));
          send({
            done: { status: 'error', message: 'The import stopped unexpectedly. Try again.' },
          });
        })
        .finally(() => {
          if (open) controller.close();
          open = false;
        });
    },
    cancel() {
      open = false;
    },
  });
  return new Response(stream, {
    headers: {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'cache-control': 'no-store',
      // Each line should reach the page as it is written, not when a proxy's buffer fills.
      'x-accel-buffering': 'no',
    },
  });
}
