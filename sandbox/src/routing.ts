import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxContext } from './context';
import type { Principal } from './oauth';

export interface RequestContext {
  ctx: SandboxContext;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  /** The endpoint key, e.g. `GET /api/v2/thermostats/:id/status`. */
  key: string;
}

export interface ApiRoute {
  method: string;
  pattern: string;
  /** `read` and `write` need a bearer token; `write` also needs a write scope and a JSON body. */
  access: 'public' | 'read' | 'write';
  handler: (
    rc: RequestContext,
    principal: Principal | null,
    body: Record<string, unknown>,
  ) => void | Promise<void>;
}

export function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    const g = got[i] as string;
    if (w.startsWith(':')) {
      if (g === '') return null;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return null;
      }
    } else if (w !== g) return null;
  }
  return params;
}
