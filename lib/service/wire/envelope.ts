import { z } from 'zod';

/**
 * The service's envelopes (the production conventions, as the sandbox's README records them):
 * success `{ status: "success", data }`, a refusal of the values `{ status: "fail", data:
 * { <field>: <message> } }` (400/422), any other error `{ status: "error", message, code }`
 * where `message` may be an object or a string and `code` a number or a word. Only what is
 * needed is required; the rest is read where it is there.
 */

export const successEnvelope = z.looseObject({
  status: z.literal('success'),
  data: z.unknown().optional(),
});

export const failEnvelope = z.looseObject({
  status: z.literal('fail'),
  data: z.record(z.string(), z.unknown()),
});

const errorEnvelope = z.looseObject({
  status: z.literal('error'),
  message: z.unknown().optional(),
  code: z.unknown().optional(),
});

/** Field paths and messages of a refusal, each message as text. */
export function refusalReasons(data: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(data).map(([field, message]) => [field, wordsOf(message) ?? 'Not accepted.']),
  );
}

/** Text from a value the service sent as a message: a string, or an object holding one. */
function wordsOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of ['description', 'message', 'text', 'detail', 'error']) {
      if (typeof record[key] === 'string') return record[key];
    }
  }
  return null;
}

/**
 * What an error body (an envelope, or an item of a bulk answer) says: a code word
 * (`thermostat_offline`) where it gives one, and its sentence.
 */
export function errorWords(body: unknown): { code: string | null; message: string | null } {
  const parsed = errorEnvelope.safeParse(body);
  if (!parsed.success) return { code: null, message: null };
  const { message, code } = parsed.data;
  const word = (value: unknown) =>
    typeof value === 'string' && /^[a-z][a-z0-9_]*$/i.test(value) ? value : null;
  const inMessage =
    message && typeof message === 'object'
      ? word((message as Record<string, unknown>).error)
      : null;
  return { code: inMessage ?? word(code), message: wordsOf(message) };
}
