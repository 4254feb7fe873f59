/** Liveness for load balancers (and the benchmark's bare dynamic baseline): no database, no service. */
export const dynamic = 'force-dynamic';

export function GET() {
  return Response.json({ ok: true, at: new Date().toISOString() });
}
