import type { ServiceErrorKind } from '@/lib/service/errors';

/**
 * Short words for a table cell. The full sentence for a failure is describeServiceError's (in
 * lib/service/errors.ts), said once for the page; a row only names what went wrong.
 */
const PROBLEM_WORDS: Record<ServiceErrorKind, string> = {
  not_connected: 'no service connection',
  reconnect: 'connection ended',
  unauthorized: 'connection ended',
  forbidden: 'not allowed by the service',
  not_found: 'unknown to the service',
  validation: 'refused by the service',
  conflict: 'refused by the service',
  rate_limited: 'service busy',
  unavailable: 'not responding',
  invalid_response: 'unreadable answer',
  not_applied: 'not applied',
  unconfirmed: 'may have been applied',
};

export function problemWords(kind: string): string {
  return PROBLEM_WORDS[kind as ServiceErrorKind] ?? 'could not be read';
}

/** How long ago `at` was, in the fewest words: "just now", "4 min ago", "3 h ago", "2 d ago". */
export function ageWords(at: Date, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - at.getTime()) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}
