import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { getEnv } from './env';
import { derivedKey } from './keys';

/**
 * What an action tells the next page across its redirect ("Deleted the group “Lobby”."): every
 * such message is one entry of the table below, and travels in one query parameter, `notice`,
 * that only Setpoint can make. Actions build the address with `withNotice`, pages read it with
 * `readNotice` and show it with `components/ui/redirect-notice.tsx`; a form posted without
 * JavaScript is redirected the same way.
 *
 * Why signed, not looked up by id: most of these say what was just deleted (a template, a group,
 * a member, a webhook, a comfort setting at the service), so nothing is left to look the words
 * up from afterwards; the action has them at hand, and signs them. Signed, not sealed: the words
 * are what the member just did, so they need no secrecy, only to be Setpoint's, and the address
 * stays readable. So the value is `<payload>.<mac>`: the payload base64url JSON (`k` the key, `p`
 * its parameters, `e` when it expires, in seconds), the MAC an HMAC-SHA-256 under a key derived
 * from AUTH_SECRET for this purpose alone, over the payload and the member it was made for.
 *
 * That binding is what stops spoofing: without it, a member of another organisation could delete
 * a template they named "Your account is locked: call …" and send the link on. A notice made for
 * one member shows only to that member; the sign-in page's notices, made before anyone is signed
 * in, are made for 'anyone' and carry no words from the address. A value that is tampered with,
 * expired, for someone else, or names a key or parameters the table does not have is not shown,
 * with no error: it is only a message.
 *
 * The one other message across a redirect is next-auth's own: it sends a failed sign-in back with
 * `?error=<code>`, and the sign-in page words only the codes it knows, echoing nothing.
 */

export const NOTICE_PARAM = 'notice';

/** Long enough for a slow page after the redirect; a reload after it shows the page alone. */
export const NOTICE_LIFETIME_S = 5 * 60;

/** Clocks of instances behind one load balancer may differ a little. */
const CLOCK_SKEW_S = 60;

/** A name, an email or an address in a notice is clipped to this many characters. */
const MAX_TEXT_LENGTH = 254;
/**
 * Beyond the longest value the table can make (two clipped texts, every character escaped in
 * the JSON): anything longer is not one of ours, and is not decoded.
 */
const MAX_VALUE_LENGTH = 8192;

export type NoticeTone = 'success' | 'info' | 'warning' | 'error';

/** A link within a notice's words; its address is the table's, never the notice's. */
export type NoticeLink = { href: string; text: string };
export type NoticePart = string | NoticeLink;

type Words = string | readonly NoticePart[];

const none = z.object({}).strict();

type Definition<Params extends z.ZodType<Record<string, unknown>>> = {
  tone: NoticeTone;
  params: Params;
  words: (params: z.output<Params>) => Words;
  /** Whom it may be made for: a signed-in member, or anyone (it then carries no words). */
  for: 'member' | 'anyone';
};

/** A notice for the signed-in member an action was done by. */
function forMember<Params extends z.ZodType<Record<string, unknown>>>(
  tone: NoticeTone,
  params: Params,
  words: (params: z.output<Params>) => Words,
): Definition<Params> & { for: 'member' } {
  return { tone, params, words, for: 'member' };
}

/**
 * A notice for whoever opens the address (the sign-in page's, before anyone is signed in): no
 * parameters, so whoever holds one can show only the table's own words with it.
 */
function forAnyone(tone: NoticeTone, words: string): Definition<typeof none> & { for: 'anyone' } {
  return { tone, params: none, words: () => words, for: 'anyone' };
}

/** A name, an email or an address as a notice says it: clipped, so an action never fails on it. */
const text = z
  .string()
  .min(1)
  .transform((value) =>
    value.length > MAX_TEXT_LENGTH ? `${value.slice(0, MAX_TEXT_LENGTH - 1)}…` : value,
  );
const named = z.object({ name: text }).strict();
const connectionFailure = z.enum(['state', 'service_error', 'code_refused', 'service_unavailable']);

/** Why the service's authorization round trip did not connect (`CallbackFailure` of the flow). */
const CONNECTION_FAILURES: Record<z.infer<typeof connectionFailure>, string> = {
  state:
    'That sign-in link was not valid here: it expired, was already used, or was started by someone else. Nothing was changed. Start again below.',
  service_error:
    'The thermostat service could not complete the authorization. Nothing was changed. Try again.',
  code_refused:
    'The thermostat service did not accept the authorization (it may have expired). Nothing was changed. Try again.',
  service_unavailable:
    'The thermostat service is not responding right now. Nothing was changed. Try again in a few minutes.',
};

/**
 * Every message an action may carry to the next page: its tone, its parameters (checked when the
 * notice is made and again when it is read) and its words.
 */
export const NOTICES = {
  // An action refused before it changed anything: the member's role does not allow it, or the
  // record is not theirs. One notice for every page, in the sentence the action's opening gave
  // (`refusal` of lib/auth/permissions, `notYours` of lib/access, tiers above this one), which
  // names the member's role and who may.
  notAllowed: forMember('error', z.object({ refusal: text }).strict(), ({ refusal }) => refusal),

  // Connecting the organisation's service account (/connection).
  connected: forMember(
    'success',
    none,
    () => 'Connected. Setpoint can now manage your thermostats.',
  ),
  disconnected: forMember(
    'info',
    none,
    () => 'Disconnected. Setpoint no longer holds your service tokens.',
  ),
  connectionDeclined: forMember(
    'info',
    none,
    () =>
      'You declined access at the thermostat service, so nothing was connected. Any existing connection is unchanged.',
  ),
  connectionFailed: forMember(
    'error',
    z.object({ reason: connectionFailure }).strict(),
    ({ reason }) => CONNECTION_FAILURES[reason],
  ),

  // The portfolio and thermostats.
  thermostatRemoved: forMember('success', z.object({ label: text }).strict(), ({ label }) => [
    `${label} was removed from the portfolio. The thermostat and its settings at the service did not change; add it again by its id from `,
    { href: '/portfolio/add', text: 'Add thermostats' },
    '.',
  ]),
  comfortSettingDeleted: forMember('success', named, ({ name }) => `Deleted ${name}.`),
  maintenanceRecorded: forMember(
    'success',
    // `nextDue` in words already (the day as Needs attention writes days).
    z.object({ label: text, nextDue: text.optional() }).strict(),
    ({ label, nextDue }) =>
      `Maintenance recorded for ${label}.${nextDue ? ` The next is due on ${nextDue}.` : ''}`,
  ),

  // Templates and groups.
  templateCreated: forMember(
    'success',
    none,
    () => 'Saved the template. Plan it on thermostats to see what it would change on each.',
  ),
  templateDeleted: forMember('success', named, ({ name }) => `Deleted the template “${name}”.`),
  groupCreated: forMember('success', named, ({ name }) => `Created the group “${name}”.`),
  groupDeleted: forMember('success', named, ({ name }) => `Deleted the group “${name}”.`),

  // Lease events.
  leaseMapped: forMember(
    'success',
    z
      .object({ label: text, externalId: text, applied: z.number().int().min(0).max(100_000) })
      .strict(),
    ({ label, externalId, applied }) =>
      `${label} has the external id “${externalId}” now; ${
        applied === 1 ? 'the event waiting for it was' : `${applied} events waiting for it were`
      } applied in order.`,
  ),

  // Members.
  memberRemoved: forMember(
    'success',
    named,
    ({ name }) => `Removed ${name}; they are signed out everywhere.`,
  ),
  invitationWithdrawn: forMember(
    'success',
    z.object({ email: text }).strict(),
    ({ email }) => `Withdrew the invitation of ${email}; its link no longer works.`,
  ),

  // Webhooks, named by their origin only (a hook's path can carry its token).
  webhookRemoved: forMember(
    'success',
    z.object({ endpoint: text }).strict(),
    ({ endpoint }) => `Removed the webhook to ${endpoint}.`,
  ),
  webhookResumed: forMember(
    'success',
    z.object({ endpoint: text, waiting: z.number().int().min(0).max(100_000) }).strict(),
    ({ endpoint, waiting }) =>
      `Resumed the webhook to ${endpoint}.${
        waiting > 0
          ? ` ${waiting} notice${waiting === 1 ? '' : 's'} that waited for it ${waiting === 1 ? 'is' : 'are'} being sent.`
          : ''
      }`,
  ),

  // The sign-in page, before anyone is signed in.
  accountReady: forAnyone('success', 'Your account is ready. Sign in to continue.'),
  passwordChanged: forAnyone(
    'success',
    'Your new password is saved, and every session of your account is signed out. Sign in with the new password.',
  ),
  joined: forAnyone('success', 'You have joined. Sign in with your new password.'),
  ssoInvitation: forAnyone(
    'info',
    'Sign in with company SSO below: you join the organisation that invited you.',
  ),
  leftOrganization: forAnyone('info', 'You have left the organisation and are signed out.'),
} as const;

export type NoticeKey = keyof typeof NOTICES;
export type NoticeParams<Key extends NoticeKey> = z.input<(typeof NOTICES)[Key]['params']>;

/** Who a notice is for: the signed-in member it was made for, or anyone (the sign-in page). */
export type NoticeReader = { userId: string } | 'anyone';

/** Whom a key's notices are made for, as `withNotice` takes it. */
type ReaderOf<Key extends NoticeKey> = (typeof NOTICES)[Key]['for'] extends 'anyone'
  ? 'anyone'
  : { userId: string };

/** A notice as a page shows it: its tone, its words (as text, and in parts with their links). */
export type ShownNotice = {
  [Key in NoticeKey]: {
    key: Key;
    tone: NoticeTone;
    text: string;
    parts: readonly NoticePart[];
    params: z.output<(typeof NOTICES)[Key]['params']>;
  };
}[NoticeKey];

type ParamsArgument<Key extends NoticeKey> =
  NoticeParams<Key> extends Record<string, never> ? [] : [params: NoticeParams<Key>];

/**
 * `path` with the notice added, for an action's `redirect`: `path` may have a query and a
 * fragment of its own. Throws on parameters the table does not allow, or for someone the notice
 * is not made for (a member's for anyone), as a typo would.
 *
 *   redirect(withNotice('/groups', member, 'groupDeleted', { name: group.name }));
 */
export function withNotice<Key extends NoticeKey>(
  path: string,
  to: ReaderOf<Key>,
  key: Key,
  ...[params]: ParamsArgument<Key>
): string {
  const definition = NOTICES[key];
  if (!definition || (to === 'anyone') !== (definition.for === 'anyone')) {
    throw new Error(
      `The notice ${String(key)} is not made for ${to === 'anyone' ? 'anyone' : 'a member'}.`,
    );
  }
  const checked = definition.params.parse(params ?? {});
  const expires = Math.floor(Date.now() / 1000) + NOTICE_LIFETIME_S;
  const payload = Buffer.from(JSON.stringify({ k: key, p: checked, e: expires })).toString(
    'base64url',
  );
  const value = `${payload}.${mac(payload, to).toString('base64url')}`;
  const url = new URL(path, 'http://setpoint.invalid');
  url.searchParams.set(NOTICE_PARAM, value);
  return `${url.pathname}${url.search}${url.hash}`;
}

const payloadSchema = z.object({
  k: z.string(),
  p: z.record(z.string(), z.unknown()),
  e: z.number().int(),
});

/**
 * The notice a page's address carries for `reader`, or null: none, tampered with, expired, made
 * for someone else, or not one the table knows.
 */
export function readNotice(
  searchParams: { [NOTICE_PARAM]?: string | string[] },
  reader: NoticeReader,
): ShownNotice | null {
  const value = searchParams[NOTICE_PARAM];
  if (typeof value !== 'string' || value.length > MAX_VALUE_LENGTH) return null;
  const [payload, signature, ...rest] = value.split('.');
  if (!payload || !signature || rest.length > 0) return null;
  const expected = mac(payload, reader);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;

  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const read = payloadSchema.safeParse(decoded);
  if (!read.success) return null;
  const { k, p, e } = read.data;
  const now = Math.floor(Date.now() / 1000);
  if (e <= now || e > now + NOTICE_LIFETIME_S + CLOCK_SKEW_S) return null;
  if (!Object.hasOwn(NOTICES, k)) return null;
  const key = k as NoticeKey;
  const definition = NOTICES[key] as Definition<z.ZodType<Record<string, unknown>>>;
  if ((reader === 'anyone') !== (definition.for === 'anyone')) return null;
  const params = definition.params.safeParse(p);
  if (!params.success) return null;
  const words = definition.words(params.data);
  const parts = typeof words === 'string' ? [words] : words;
  return {
    key,
    tone: definition.tone,
    text: parts.map((part) => (typeof part === 'string' ? part : part.text)).join(''),
    parts,
    params: params.data,
  } as ShownNotice;
}

function mac(payload: string, reader: NoticeReader): Buffer {
  const who = reader === 'anyone' ? 'anyone' : `member ${reader.userId}`;
  return createHmac('sha256', derivedKey(getEnv().AUTH_SECRET, 'redirect-notice'))
    .update(`${who}\n${payload}`)
    .digest();
}
