import 'server-only';
import { ApiProblem } from './http';

/**
 * The API's cursors: opaque to a client (base64url of JSON), checked as they come back, and a
 * request's query as a plain object for its schema.
 */

export const encodeCursor = (value: unknown) =>
  Buffer.from(JSON.stringify(value)).toString('base64url');

/** The cursor a page gave (`after`), or null for the first page; a 422 for any other text. */
export function decodeCursor<T>(text: string | undefined, isValid: (value: unknown) => value is T) {
  if (text === undefined) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (isValid(value)) return value;
  } catch {
    // Refused below.
  }
  throw new ApiProblem(422, 'Invalid request', 'The cursor is not one this API gave.', [
    { field: 'after', message: 'Use a page’s `next` value as it came.' },
  ]);
}

/** A database timestamp as text (`2026-11-29 08:52:40.123456+00`), as a cursor carries it. */
export const DATABASE_TIMESTAMP =
  /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

export const query = (url: URL) => Object.fromEntries(url.searchParams);
