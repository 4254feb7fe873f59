import type { LoggerInstance } from 'next-auth';
import { logWarningSometimes } from '@/lib/platform/log';

/**
 * next-auth's log. A session cookie that cannot be read is whatever a client chose to send:
 * next-auth's own logger writes its full stack trace every time, so anyone could fill the log
 * by sending garbage. It gets one brief line now and then instead; everything else is logged
 * as next-auth would (with its stack: that is ours to fix).
 *
 * Setting `logger` also turns on next-auth's `/api/auth/_log` endpoint, which writes what any
 * client posts; the route refuses that path (app/api/auth/[...nextauth]/route.ts).
 */
const CLIENT_CAUSED = new Set(['JWT_SESSION_ERROR']);

export const authLogger: Partial<LoggerInstance> = {
  error(code, metadata) {
    if (CLIENT_CAUSED.has(code)) {
      const reason = metadata instanceof Error ? metadata.message : 'unreadable';
      logWarningSometimes(
        `next-auth:${code}`,
        `next-auth ${code}: a session cookie could not be read (${reason.slice(0, 80)})`,
      );
      return;
    }
    console.error(`[next-auth][error][${code}]`, metadata);
  },
  warn(code) {
    console.warn(`[next-auth][warn][${code}]`);
  },
};
