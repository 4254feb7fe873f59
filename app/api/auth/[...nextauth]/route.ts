import NextAuth from 'next-auth';
import { getAuthOptions } from '@/lib/auth/options';

type Context = { params: Promise<{ nextauth: string[] }> };

// Options are built per request so configuration is never read while Next.js builds.
function handler(request: Request, context: Context): Promise<Response> {
  return NextAuth(request as never, context as never, getAuthOptions());
}

export { handler as GET, handler as POST };
