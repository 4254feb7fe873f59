/**
 * Server log lines with secrets removed. Anything shaped like a token (JWTs, bearer values,
 * long random strings, `code=`/`token=` parameters) is replaced before it is written.
 */
const PATTERNS: [RegExp, string][] = [
  [/eyJ[\w-]*\.[\w-]*\.[\w-]*/g, '[jwt]'],
  [/(bearer\s+)[^\s"',]+/gi, '$1[redacted]'],
  [
    /((?:access_token|refresh_token|code|token|passcode|password)["']?\s*[=:]\s*["']?)[^\s"'&,}]+/gi,
    '$1[redacted]',
  ],
  [/\b[\w-]{32,}\b/g, '[redacted]'],
  [/\bv\d\.[\w.-]{20,}/g, '[redacted]'],
];

export function redact(text: string): string {
  let result = text;
  for (const [pattern, replacement] of PATTERNS) result = result.replace(pattern, replacement);
  return result.length > 500 ? `${result.slice(0, 500)}…` : result;
}

export function logWarning(message: string, detail?: unknown): void {
  const suffix =
    detail === undefined
      ? ''
      : ` ${redact(typeof detail === 'string' ? detail : JSON.stringify(detail))}`;
  console.warn(`[setpoint] ${redact(message)}${suffix}`);
}

const QUIET_PERIOD_MS = 10 * 60 * 1000;
const quiet = new Map<string, { until: number; suppressed: number }>();

/**
 * For what anyone can cause at will (a garbage cookie, say): one brief line, then at most one
 * every ten minutes per `key`, counting those left out, so that no one can flood the log.
 */
export function logWarningSometimes(key: string, message: string, now = Date.now()): void {
  const entry = quiet.get(key);
  if (entry && now < entry.until) {
    entry.suppressed += 1;
    return;
  }
  const left = entry?.suppressed ? ` (${entry.suppressed} more since the last line)` : '';
  quiet.set(key, { until: now + QUIET_PERIOD_MS, suppressed: 0 });
  logWarning(`${message}${left}; the next are counted, not logged, for 10 minutes`);
}
