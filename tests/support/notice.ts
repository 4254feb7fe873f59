import { type NoticeReader, readNotice } from '@/lib/platform/notice';

/**
 * An address an action redirected to, as its page reads it: the address without its notice, and
 * the notice's key and words (null when there is none, or none for `reader`).
 */
export function redirectedWith(address: string, reader: NoticeReader) {
  const url = new URL(address, 'http://setpoint.invalid');
  const notice = readNotice(Object.fromEntries(url.searchParams), reader);
  url.searchParams.delete('notice');
  return {
    to: `${url.pathname}${url.search}${url.hash}`,
    notice: notice && { key: notice.key, text: notice.text },
  };
}

/** Where an action that ends in a redirect (thrown by the tests' `redirect`) went. */
export async function redirectOf(action: Promise<unknown>): Promise<string> {
  const thrown = await action.then(
    () => null,
    (error: unknown) => error,
  );
  const to = (thrown as { to?: unknown } | null)?.to;
  if (typeof to !== 'string') throw new Error(`no redirect: ${String(thrown)}`);
  return to;
}
