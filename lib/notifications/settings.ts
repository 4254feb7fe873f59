import 'server-only';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  type EndpointListing,
  findSubscription,
  findWebhookEndpoint,
  resumeWebhookEndpoint,
  type Subscription,
  saveNotificationRules,
  saveSubscription,
} from '@/lib/notifications/store';
import type { Member } from '@/lib/auth/store';
import { listOrganizationBuildings } from '@/lib/portfolio/store';
import { getEnv } from '@/lib/platform/env';
import { sealToken } from '@/lib/service/connection/vault';
import { buildingIdSchema } from '@/lib/service/schemas';
import { queueNotices, sendTestWebhook } from './delivery';
import { displayUrl } from './fan-out';
import {
  EVENT_KIND_NAMES,
  INCIDENT_KIND_NAMES,
  type IncidentKind,
  isIncidentKind,
  isWebhookKind,
  MAX_DELAY_MINUTES,
} from './kinds';
import { parseMinutes } from './quiet-hours';
import { newWebhookSecret, webhookHostProblem, webhookUrlProblem } from './webhooks';

/**
 * The notifications page's forms: a member's own email subscription, the organisation's rules,
 * and its webhook endpoints. Schemas (shared with the tests) and what saving each does; the
 * actions open with lib/access/actions.ts (owners and admins for rules and webhooks).
 */

const kindsSchema = z
  .array(
    z.string().refine(isIncidentKind, 'Choose kinds from the list.'),
    'Choose kinds from the list.',
  )
  .max(INCIDENT_KIND_NAMES.length * 2)
  .transform((kinds) => [...new Set(kinds)] as IncidentKind[]);

const buildingChoiceSchema = z
  .object({
    buildingScope: z.enum(['all', 'chosen'], 'Choose all buildings or some.'),
    buildingIds: z.array(buildingIdSchema, 'Choose buildings from the list.').max(1000),
  })
  .refine((value) => value.buildingScope === 'all' || value.buildingIds.length > 0, {
    path: ['buildingIds'],
    message: 'Choose at least one building, or all of them.',
  })
  .transform((value) =>
    value.buildingScope === 'all' ? null : [...new Set(value.buildingIds)].sort(),
  );

const timeOfDay = z
  .string('Enter a time such as 22:00.')
  .trim()
  .refine((text) => text === '' || parseMinutes(text) !== null, 'Enter a time such as 22:00.')
  .transform((text) => (text === '' ? null : parseMinutes(text)));

export const subscriptionSchema = z
  .object({
    mode: z.enum(['off', 'immediate', 'digest'], 'Choose how you are told.'),
    kinds: kindsSchema,
    buildings: buildingChoiceSchema,
    digestHour: z.coerce
      .number('Choose an hour.')
      .int('Choose an hour.')
      .min(0, 'Choose an hour.')
      .max(23, 'Choose an hour.'),
    quietStart: timeOfDay,
    quietEnd: timeOfDay,
  })
  .refine((value) => value.mode === 'off' || value.kinds.length > 0, {
    path: ['kinds'],
    message: 'Choose at least one kind of incident, or turn email off.',
  })
  .refine((value) => (value.quietStart === null) === (value.quietEnd === null), {
    path: ['quietEnd'],
    message: 'Give both ends of quiet hours, or neither.',
  })
  .refine((value) => value.quietStart === null || value.quietStart !== value.quietEnd, {
    path: ['quietEnd'],
    message: 'Quiet hours must end at another time than they start.',
  });

/** The subscription form's fields as posted (lists from their checkboxes). */
export function subscriptionInput(form: FormData) {
  return {
    mode: form.get('mode'),
    kinds: form.getAll('kinds'),
    buildings: {
      buildingScope: form.get('buildingScope') ?? 'all',
      buildingIds: form.getAll('buildingIds'),
    },
    digestHour: form.get('digestHour') ?? '7',
    quietStart: form.get('quietStart') ?? '',
    quietEnd: form.get('quietEnd') ?? '',
  };
}

/**
 * Field errors keyed as the subscription and webhook forms name their fields (the nested
 * building choice as its own two).
 */
export function formFieldErrors(error: z.ZodError): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const [first, second] = issue.path.map(String);
    const field = first === 'buildings' ? (second ?? 'buildingIds') : (first ?? 'form');
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  return errors;
}

/** A member's own subscription, or what the form offers before they have one. */
export async function subscriptionOf(member: Member): Promise<Subscription | null> {
  return findSubscription({ orgId: member.orgId, userId: member.userId });
}

/**
 * Saves a member's own subscription. Buildings must be theirs to see (and the organisation's);
 * the delivery checks again when it sends, should their buildings change. Notices waiting for a
 * digest or quiet hours follow the new choice.
 */
export async function saveMemberSubscription(
  member: Member,
  choice: z.infer<typeof subscriptionSchema>,
): Promise<{ ok: true } | { ok: false; fieldErrors: Record<string, string[]> }> {
  if (choice.buildings) {
    const known = new Set(
      (await listOrganizationBuildings({ orgId: member.orgId })).map((b) => b.buildingId),
    );
    const mine = (id: string) =>
      known.has(id) && (member.buildingIds === null || member.buildingIds.includes(id));
    if (!choice.buildings.every(mine)) {
      return { ok: false, fieldErrors: { buildingIds: ['Choose among your own buildings.'] } };
    }
  }
  const notices = await saveSubscription({
    userId: member.userId,
    orgId: member.orgId,
    mode: choice.mode,
    kinds: choice.kinds,
    buildingIds: choice.buildings,
    // The member's one clock (their account's zone), for the digest's hour and quiet hours.
    timeZone: member.timeZone,
    digestHour: choice.digestHour,
    quietStart: choice.quietStart,
    quietEnd: choice.quietEnd,
  });
  await queueNotices(notices);
  return { ok: true };
}

// --- Rules ------------------------------------------------------------------------------------------

const delaySchema = z.coerce
  .number('Enter minutes as a number.')
  .int('Enter whole minutes.')
  .min(0, 'Enter 0 or more minutes.')
  .max(MAX_DELAY_MINUTES, `Enter at most ${MAX_DELAY_MINUTES} minutes (a day).`);

/**
 * The rules form: a checkbox `enabled` per kind turned on, and `delay-<kind>` minutes for each.
 * Field errors are keyed `delay-<kind>`.
 */
export function parseRules(
  form: FormData,
):
  | { ok: true; rules: { kind: IncidentKind; enabled: boolean; delayMinutes: number }[] }
  | { ok: false; fieldErrors: Record<string, string[]> } {
  const enabled = new Set(form.getAll('enabled').filter((value) => typeof value === 'string'));
  const fieldErrors: Record<string, string[]> = {};
  const rules = INCIDENT_KIND_NAMES.map((kind) => {
    const delay = delaySchema.safeParse(form.get(`delay-${kind}`) ?? '0');
    if (!delay.success) fieldErrors[`delay-${kind}`] = delay.error.issues.map((i) => i.message);
    return { kind, enabled: enabled.has(kind), delayMinutes: delay.success ? delay.data : 0 };
  });
  if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  return { ok: true, rules };
}

export async function saveRules(input: {
  orgId: string;
  rules: { kind: IncidentKind; enabled: boolean; delayMinutes: number }[];
}): Promise<void> {
  await saveNotificationRules(input);
}

// --- Webhooks -------------------------------------------------------------------------------------

export const webhookSchema = z.object({
  url: z
    .string('Enter the endpoint’s address.')
    .trim()
    .min(1, 'Enter the endpoint’s address.')
    .max(2000, 'Use an address of at most 2,000 characters.')
    .superRefine((url, ctx) => {
      const env = getEnv();
      const problem = webhookUrlProblem(url, {
        production: env.NODE_ENV === 'production',
        allowPrivateHosts: env.WEBHOOK_ALLOW_PRIVATE_HOSTS,
      });
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  description: z
    .string('Enter a description as text.')
    .trim()
    .max(200, 'Use at most 200 characters.'),
  kinds: z
    .array(
      z.string().refine(isWebhookKind, 'Choose kinds from the list.'),
      'Choose kinds from the list.',
    )
    .max((INCIDENT_KIND_NAMES.length + EVENT_KIND_NAMES.length) * 2)
    .transform((kinds) => [...new Set(kinds)])
    .refine((kinds) => kinds.length > 0, 'Choose at least one kind of incident or event.'),
  buildings: buildingChoiceSchema,
});

export function webhookInput(form: FormData) {
  return {
    url: form.get('url'),
    description: form.get('description') ?? '',
    kinds: form.getAll('kinds'),
    buildings: {
      buildingScope: form.get('buildingScope') ?? 'all',
      buildingIds: form.getAll('buildingIds'),
    },
  };
}

/**
 * Adds a webhook endpoint with a new signing secret, sealed in the database (bound to its row)
 * and returned once to show to the person who added it. Refused when its name resolves to an
 * address that is not public (unless WEBHOOK_ALLOW_PRIVATE_HOSTS).
 */
export async function addWebhook(input: {
  orgId: string;
  createdByName: string;
  endpoint: z.infer<typeof webhookSchema>;
}): Promise<
  | { ok: true; endpoint: EndpointListing; secret: string }
  | { ok: false; fieldErrors: Record<string, string[]> }
> {
  const { endpoint } = input;
  if (!getEnv().WEBHOOK_ALLOW_PRIVATE_HOSTS) {
    // The schema read the address; here its name, as DNS has it now.
    const problem = await webhookHostProblem(endpoint.url);
    if (problem) return { ok: false, fieldErrors: { url: [problem] } };
  }
  if (endpoint.buildings) {
    const known = new Set(
      (await listOrganizationBuildings({ orgId: input.orgId })).map((b) => b.buildingId),
    );
    if (!endpoint.buildings.every((id) => known.has(id))) {
      return {
        ok: false,
        fieldErrors: { buildingIds: ['Choose buildings of your organisation.'] },
      };
    }
  }
  const id = randomUUID();
  const secret = newWebhookSecret();
  const created = await createWebhookEndpoint({
    id,
    orgId: input.orgId,
    url: endpoint.url,
    description: endpoint.description,
    secretSealed: await sealToken(
      secret,
      { rowId: id, field: 'webhook_secret' },
      getEnv().TOKEN_KEYS,
    ),
    kinds: endpoint.kinds,
    buildingIds: endpoint.buildings,
    createdByName: input.createdByName,
  });
  return { ok: true, endpoint: created, secret };
}

/** The answer when a webhook id is not one of the organisation's. */

const webhookIdSchema = z.uuid();

/** Removes an endpoint of the organisation; null when it is not one. */
export async function removeWebhook(input: { orgId: string; id: unknown }) {
  const id = webhookIdSchema.safeParse(input.id);
  return id.success ? deleteWebhookEndpoint({ orgId: input.orgId, id: id.data }) : null;
}

/** Resumes a paused or failing endpoint and sends what waited for it; null when not one. */
export async function resumeWebhook(input: { orgId: string; id: unknown }) {
  const id = webhookIdSchema.safeParse(input.id);
  if (!id.success) return null;
  const resumed = await resumeWebhookEndpoint({ orgId: input.orgId, id: id.data });
  if (!resumed) return null;
  await queueNotices(resumed.notices);
  return resumed;
}

/** Sends an endpoint of the organisation a signed test request; null when not one. */
export async function testWebhook(input: { orgId: string; id: unknown }) {
  const id = webhookIdSchema.safeParse(input.id);
  const endpoint = id.success
    ? await findWebhookEndpoint({ orgId: input.orgId, id: id.data })
    : null;
  if (!endpoint) return null;
  return sendTestWebhook({
    orgId: input.orgId,
    endpointId: endpoint.id,
    recipient: displayUrl(endpoint.url),
  });
}
