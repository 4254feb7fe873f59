import NextAuth from 'next-auth';
import { getAuthOptions } from '@/lib/auth/options';

type Context = { params: Promise<{ nextauth: string[] }> };

// Options are built per request so configuration is never read while Next.js builds.
async function handler(request: Request, context: Context): Promise<Response> {
  // next-auth's `_log` writes whatever a client posts into the server log once a logger is
  // configured (ours is, lib/auth/auth-log.ts): nothing outside the server may write there.
  if ((await context.params).nextauth[0] === '_log') return new Response(null, { status: 404 });
  return NextAuth(request as never, context as never, getAuthOptions());
}

export { handler as GET, handler as POST };
