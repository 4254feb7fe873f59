import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxContext } from './context';
import { ApiError } from './http-util';
import type { Principal } from './oauth';
import type { Thermostat } from './store';
import { getOwnThermostat } from './thermostats';

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
    request: RequestContext,
    principal: Principal | null,
    body: Record<string, unknown>,
  ) => void | Promise<void>;
}

/** What a handler of a route on one thermostat gets: the caller's thermostat, already found. */
export interface ThermostatRequest extends RequestContext {
  thermostat: Thermostat;
  principal: Principal;
  body: Record<string, unknown>;
}

/**
 * A route on one of the caller's thermostats (`:id` in the pattern). Reads need a token, every
 * other method a write scope; an unknown id and another account's thermostat are both 404.
 */
export function thermostatRoute(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  pattern: string,
  handle: (request: ThermostatRequest) => void,
): ApiRoute {
  return {
    method,
    pattern,
    access: method === 'GET' ? 'read' : 'write',
    handler: (request, principal, body) => {
      const thermostat = getOwnThermostat(request.ctx, principal, request.params.id);
      handle({ ...request, thermostat, principal: principal as Principal, body });
    },
  };
}

export function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const wanted = pattern.split('/');
  const given = path.split('/');
  if (wanted.length !== given.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < wanted.length; index++) {
    const wantedSegment = wanted[index] as string;
    const givenSegment = given[index] as string;
    if (wantedSegment.startsWith(':')) {
      if (givenSegment === '') return null;
      try {
        params[wantedSegment.slice(1)] = decodeURIComponent(givenSegment);
      } catch {
        return null;
      }
    } else if (wantedSegment !== givenSegment) return null;
  }
  return params;
}

/** The 405 answer for a path that exists under other methods. */
export function methodNotAllowed(allowed: string[]): never {
  throw new ApiError(
    405,
    'method_not_allowed',
    `Method not allowed. Allowed: ${allowed.join(', ')}.`,
    { allow: allowed.join(', ') },
  );
}
