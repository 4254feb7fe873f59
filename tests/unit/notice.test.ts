import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';

const SECRET = randomBytes(32).toString('base64url');
Object.assign(process.env, {
  AUTH_SECRET: SECRET,
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-notice-')),
  NEXTAUTH_URL: 'https://setpoint.example.com',
});
const { NOTICE_LIFETIME_S, readNotice, withNotice } = await import('@/lib/platform/notice');
const { derivedKey } = await import('@/lib/platform/keys');
const { RedirectNotice } = await import('@/components/ui/redirect-notice');

const ALICE = { userId: '0b9f3c5e-6d0a-4a53-9f7e-0d6f0c7b9a11' };
const BOB = { userId: '7f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f' };

/** The query of an address, as a page's `searchParams` has it. */
function paramsOf(address: string): Record<string, string> {
  return Object.fromEntries(new URL(address, 'http://setpoint.invalid').searchParams);
}

const noticeValueOf = (address: string) => paramsOf(address).notice ?? '';

/** A value signed as Setpoint signs one, with any payload: what a newer or older version sent. */
function signed(payload: unknown, who: string): string {
  const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const mac = createHmac('sha256', derivedKey(SECRET, 'redirect-notice'))
    .update(`${who}\n${encoded}`)
    .digest('base64url');
  return `${encoded}.${mac}`;
}

const inAMinute = () => Math.floor(Date.now() / 1000) + 60;

/**
 * Messages across a redirect (lib/platform/notice.ts): only Setpoint makes them, only the member
 * they were made for sees them, for a few minutes, and only in the words of the table.
 */
describe('notices across a redirect', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('round-trips: the page reads the words the action meant, in its tone', () => {
    const to = withNotice('/groups', ALICE, 'groupDeleted', { name: 'Lobby & “Hall”' });
    expect(to).toMatch(/^\/groups\?notice=[\w-]+\.[\w-]+$/);
    expect(readNotice(paramsOf(to), ALICE)).toEqual({
      key: 'groupDeleted',
      tone: 'success',
      text: 'Deleted the group “Lobby & “Hall””.',
      parts: ['Deleted the group “Lobby & “Hall””.'],
      params: { name: 'Lobby & “Hall”' },
    });
  });

  it('keeps the address’s own query and fragment', () => {
    const to = withNotice('/attention?kind=maintenance&page=2#list', ALICE, 'maintenanceRecorded', {
      label: 'Unit 4B',
      nextDue: 'Mar 3, 2027',
    });
    const url = new URL(to, 'http://setpoint.invalid');
    expect(url.pathname).toBe('/attention');
    expect(url.searchParams.get('kind')).toBe('maintenance');
    expect(url.searchParams.get('page')).toBe('2');
    expect(url.hash).toBe('#list');
    expect(readNotice(paramsOf(to), ALICE)?.text).toBe(
      'Maintenance recorded for Unit 4B. The next is due on Mar 3, 2027.',
    );
  });

  it('shows a notice only to the member it was made for', () => {
    const to = withNotice('/templates', ALICE, 'templateDeleted', { name: 'Vacant unit' });
    expect(readNotice(paramsOf(to), ALICE)?.key).toBe('templateDeleted');
    expect(readNotice(paramsOf(to), BOB)).toBeNull();
    expect(readNotice(paramsOf(to), 'anyone')).toBeNull();
    // And one for anyone (the sign-in page's) is not taken for a member's.
    const anyone = withNotice('/sign-in', 'anyone', 'leftOrganization');
    expect(readNotice(paramsOf(anyone), 'anyone')?.text).toBe(
      'You have left the organisation and are signed out.',
    );
    expect(readNotice(paramsOf(anyone), ALICE)).toBeNull();
  });

  it('makes only the table’s own words for anyone, and those only for anyone', () => {
    // A notice with words of an action's (a name) is a member's: signed for anyone, it is not
    // shown, so no link can carry words of its maker's choosing to whoever opens it.
    const spoof = { k: 'templateDeleted', p: { name: 'Call +1 555 0100' }, e: inAMinute() };
    expect(readNotice({ notice: signed(spoof, 'anyone') }, 'anyone')).toBeNull();
    const signIn = { k: 'accountReady', p: {}, e: inAMinute() };
    expect(readNotice({ notice: signed(signIn, `member ${ALICE.userId}`) }, ALICE)).toBeNull();
    expect(readNotice({ notice: signed(signIn, 'anyone') }, 'anyone')?.text).toBe(
      'Your account is ready. Sign in to continue.',
    );
    expect(() =>
      // @ts-expect-error a member's notice is not made for anyone
      withNotice('/sign-in', 'anyone', 'templateDeleted', { name: 'Call +1 555 0100' }),
    ).toThrow();
    // @ts-expect-error nor the sign-in page's for a member
    expect(() => withNotice('/sign-in', ALICE, 'accountReady')).toThrow();
  });

  it('ignores a tampered value: other words, another key, another signature', () => {
    const value = noticeValueOf(withNotice('/members', ALICE, 'memberRemoved', { name: 'Pat' }));
    const [payload, mac] = value.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const reencode = (changed: unknown) =>
      `${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${mac}`;

    expect(readNotice({ notice: value }, ALICE)?.text).toBe(
      'Removed Pat; they are signed out everywhere.',
    );
    expect(
      readNotice(
        { notice: reencode({ ...decoded, p: { name: 'Your account is locked' } }) },
        ALICE,
      ),
    ).toBeNull();
    expect(readNotice({ notice: reencode({ ...decoded, k: 'groupDeleted' }) }, ALICE)).toBeNull();
    expect(readNotice({ notice: reencode({ ...decoded, e: decoded.e + 3600 }) }, ALICE)).toBeNull();
    const flipped = `${mac.slice(0, -2)}${mac.endsWith('AA') ? 'AB' : 'AA'}`;
    expect(readNotice({ notice: `${payload}.${flipped}` }, ALICE)).toBeNull();
    expect(readNotice({ notice: payload }, ALICE)).toBeNull();
    expect(readNotice({ notice: `${value}.more` }, ALICE)).toBeNull();
    expect(readNotice({ notice: [value, value] }, ALICE)).toBeNull();
    expect(readNotice({ notice: `${value}${'A'.repeat(8192)}` }, ALICE)).toBeNull();
    expect(readNotice({ notice: '' }, ALICE)).toBeNull();
    expect(readNotice({}, ALICE)).toBeNull();
  });

  it('ignores a genuine signature over a key or parameters the table does not have', () => {
    const who = `member ${ALICE.userId}`;
    const read = (payload: unknown) => readNotice({ notice: signed(payload, who) }, ALICE);
    expect(read({ k: 'groupDeleted', p: { name: 'Lobby' }, e: inAMinute() })?.text).toBe(
      'Deleted the group “Lobby”.',
    );
    expect(read({ k: 'somethingNew', p: {}, e: inAMinute() })).toBeNull();
    expect(read({ k: 'toString', p: {}, e: inAMinute() })).toBeNull();
    expect(read({ k: '__proto__', p: {}, e: inAMinute() })).toBeNull();
    // The old ad-hoc keys are not notices either.
    expect(read({ k: 'deleted', p: { name: 'Lobby' }, e: inAMinute() })).toBeNull();
    // Parameters the key does not take, or of the wrong kind.
    expect(read({ k: 'groupDeleted', p: { name: 'Lobby', extra: 1 }, e: inAMinute() })).toBeNull();
    expect(read({ k: 'groupDeleted', p: { name: 42 }, e: inAMinute() })).toBeNull();
    expect(read({ k: 'groupDeleted', p: {}, e: inAMinute() })).toBeNull();
    expect(read({ k: 'connectionFailed', p: { reason: 'made_up' }, e: inAMinute() })).toBeNull();
    expect(read({ k: 'groupDeleted', p: { name: 'Lobby' } })).toBeNull();
    expect(read('not an object')).toBeNull();
  });

  it('expires after a few minutes, and is not taken from the far future', () => {
    vi.useFakeTimers({ now: new Date('2026-12-01T10:00:00Z') });
    const to = withNotice('/notifications', ALICE, 'webhookResumed', {
      endpoint: 'https://hooks.example',
      waiting: 2,
    });
    vi.setSystemTime(new Date(Date.now() + (NOTICE_LIFETIME_S - 1) * 1000));
    expect(readNotice(paramsOf(to), ALICE)?.text).toBe(
      'Resumed the webhook to https://hooks.example. 2 notices that waited for it are being sent.',
    );
    vi.setSystemTime(new Date(Date.now() + 2000));
    expect(readNotice(paramsOf(to), ALICE)).toBeNull();

    // Signed by us, but meant to last a day: not a notice this version makes.
    const who = `member ${ALICE.userId}`;
    const later = Math.floor(Date.now() / 1000) + 24 * 3600;
    const payload = { k: 'groupDeleted', p: { name: 'Lobby' }, e: later };
    expect(readNotice({ notice: signed(payload, who) }, ALICE)).toBeNull();
  });

  it('refuses to make a notice with parameters its key does not take', () => {
    expect(() =>
      // @ts-expect-error the words of a key are the table's: no other parameters
      withNotice('/groups', ALICE, 'groupDeleted', { name: 'Lobby', extra: 'x' }),
    ).toThrow();
    // @ts-expect-error nor a key the table does not have
    expect(() => withNotice('/groups', ALICE, 'deleted', { name: 'Lobby' })).toThrow();
  });

  it('clips long words rather than failing the action that made them', () => {
    const to = withNotice('/members', ALICE, 'invitationWithdrawn', { email: 'a'.repeat(400) });
    const read = readNotice(paramsOf(to), ALICE);
    expect(read?.key).toBe('invitationWithdrawn');
    expect(read?.params).toEqual({ email: `${'a'.repeat(253)}…` });
  });

  it('is shown as a status message, with the table’s link where it has one', () => {
    const to = withNotice('/buildings/aaaaaaaaaaaaaaaaaaaaaaaa', ALICE, 'thermostatRemoved', {
      label: '<b>Unit 4B</b>',
    });
    const notice = readNotice(paramsOf(to), ALICE);
    expect(notice?.text).toBe(
      '<b>Unit 4B</b> was removed from the portfolio. The thermostat and its settings at the service did not change; add it again by its id from Add thermostats.',
    );
    const html = renderToStaticMarkup(createElement(RedirectNotice, { notice }));
    expect(html).toMatch(/^<div role="status" class="[^"]*emerald/);
    expect(html).toContain('&lt;b&gt;Unit 4B&lt;/b&gt; was removed from the portfolio.');
    expect(html).toContain(
      '<a class="font-medium underline" href="/portfolio/add">Add thermostats</a>.',
    );
    expect(renderToStaticMarkup(createElement(RedirectNotice, { notice: null }))).toBe('');
  });
});
