'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { notYours } from '@/lib/access/not-yours';
import { formStrings, openAction, openOwnAction } from '@/lib/access/actions';
import { logActivity } from '@/lib/activity/sink';
import type { Member } from '@/lib/auth/store';
import type { FormState } from '@/lib/platform/forms';
import { withNotice } from '@/lib/platform/notice';
import { sendTestEmail } from '@/lib/notifications/delivery';
import { displayUrl } from '@/lib/notifications/fan-out';
import { INCIDENT_KINDS } from '@/lib/notifications/kinds';
import {
  addWebhook,
  formFieldErrors,
  parseRules,
  removeWebhook,
  resumeWebhook,
  saveMemberSubscription,
  saveRules,
  subscriptionInput,
  subscriptionSchema,
  testWebhook,
  webhookInput,
  webhookSchema,
} from '@/lib/notifications/settings';

const PAGE = '/notifications';
const CHECK = 'Check the highlighted fields; nothing was saved.';

/** Lists posted by checkboxes, joined, to refill the form. */
const joined = (form: FormData, name: string) =>
  form
    .getAll(name)
    .filter((value) => typeof value === 'string')
    .join(',');

/** A form's values to refill it: its text fields, and the kinds and buildings it ticked. */
const refill = (form: FormData, fields: string[]) => ({
  ...formStrings(form, fields),
  kinds: joined(form, 'kinds'),
  buildingIds: joined(form, 'buildingIds'),
});

/** A form refused before anything was saved: its fields' errors, and what it posted. */
const refused = (
  fieldErrors: FormState['fieldErrors'],
  values?: FormState['values'],
): FormState => ({
  status: 'error',
  message: CHECK,
  fieldErrors,
  ...(values && { values }),
});

/**
 * An action on one of the organisation's webhook endpoints (bound to its id by the page), for
 * those who manage notifications: `act` finds the endpoint and acts on it in one step, and "not
 * yours" answers an id the organisation has no endpoint of.
 */
async function openEndpoint<Done>(
  endpointId: string,
  act: (endpoint: { orgId: string; id: string }) => Promise<Done | null>,
): Promise<{ ok: true; member: Member; done: Done } | { ok: false; state: FormState }> {
  const opened = await openAction('manage_notifications');
  if (!opened.ok) return opened;
  const done = await act({ orgId: opened.member.orgId, id: endpointId });
  if (!done) return { ok: false, state: { status: 'error', message: notYours('webhook') } };
  return { ok: true, member: opened.member, done };
}

/** A member's own email: which incidents, which of their buildings, when. Every member may. */
export async function saveMySubscription(_previous: FormState, form: FormData): Promise<FormState> {
  const member = await openOwnAction();
  const values = refill(form, ['mode', 'buildingScope', 'digestHour', 'quietStart', 'quietEnd']);
  const parsed = subscriptionSchema.safeParse(subscriptionInput(form));
  if (!parsed.success) return refused(formFieldErrors(parsed.error), values);
  const saved = await saveMemberSubscription(member, parsed.data);
  if (!saved.ok) return refused(saved.fieldErrors, values);
  revalidatePath(PAGE);
  const how = {
    off: 'You are not emailed.',
    immediate: 'You are emailed as incidents open and clear.',
    digest: 'You are emailed a daily digest (urgent incidents at once).',
  }[parsed.data.mode];
  return { status: 'success', message: `Saved. ${how}`, values };
}

/** Emails the member a test message now. */
export async function sendMeATestEmail(_previous: FormState, _form: FormData): Promise<FormState> {
  const member = await openOwnAction();
  const result = await sendTestEmail({
    orgId: member.orgId,
    userId: member.userId,
    email: member.email,
  });
  revalidatePath(PAGE);
  return { status: result.ok ? 'success' : 'error', message: result.message };
}

/** The organisation's rules: which kinds open incidents, and after how long people hear. */
export async function saveNotificationRulesAction(
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const opened = await openAction('manage_notifications');
  if (!opened.ok) return opened.state;
  const { member } = opened;
  const parsed = parseRules(form);
  if (!parsed.ok) return refused(parsed.fieldErrors);
  await saveRules({ orgId: member.orgId, rules: parsed.rules });
  const on = parsed.rules.filter((rule) => rule.enabled);
  await logActivity({
    actor: member,
    action: 'notification.rules_update',
    summary: `Notification rules: ${on.length} of ${parsed.rules.length} kinds of incident on`,
    changes: Object.fromEntries(
      parsed.rules.map((rule) => [
        INCIDENT_KINDS[rule.kind].name,
        rule.enabled ? `on, after ${rule.delayMinutes} min` : 'off',
      ]),
    ),
  });
  revalidatePath(PAGE);
  return {
    status: 'success',
    message: 'Rules saved: they apply from the next check, within a minute.',
  };
}

/** Adds a webhook endpoint; its signing secret is shown once. */
export async function addWebhookAction(_previous: FormState, form: FormData): Promise<FormState> {
  const opened = await openAction('manage_notifications');
  if (!opened.ok) return opened.state;
  const { member } = opened;
  const values = refill(form, ['url', 'description', 'buildingScope']);
  const parsed = webhookSchema.safeParse(webhookInput(form));
  if (!parsed.success) return refused(formFieldErrors(parsed.error), values);
  const added = await addWebhook({
    orgId: member.orgId,
    createdByName: member.name,
    endpoint: parsed.data,
  });
  if (!added.ok) return refused(added.fieldErrors, values);
  await logActivity({
    actor: member,
    action: 'notification.webhook_add',
    summary: `Added a webhook to ${displayUrl(added.endpoint.url)}`,
    changes: {
      url: displayUrl(added.endpoint.url),
      kinds: added.endpoint.kinds,
      buildingIds: added.endpoint.buildingIds ?? 'all',
    },
  });
  revalidatePath(PAGE);
  return {
    status: 'success',
    message:
      'Webhook added. Copy its signing secret now into the receiving system: it cannot be shown again.',
    secret: added.secret,
  };
}

/** Removes a webhook endpoint (bound to its id by the page). */
export async function removeWebhookAction(
  endpointId: string,
  _previous: FormState,
  _form: FormData,
): Promise<FormState> {
  const opened = await openEndpoint(endpointId, removeWebhook);
  if (!opened.ok) return opened.state;
  const { member, done: removed } = opened;
  await logActivity({
    actor: member,
    action: 'notification.webhook_remove',
    summary: `Removed the webhook to ${displayUrl(removed.url)}`,
    changes: { url: displayUrl(removed.url) },
  });
  revalidatePath(PAGE);
  // Its row goes with it: the page says what was done.
  redirect(withNotice(PAGE, member, 'webhookRemoved', { endpoint: displayUrl(removed.url) }));
}

/** Resumes a paused or failing endpoint; what waited for it in the last day is sent. */
export async function resumeWebhookAction(
  endpointId: string,
  _previous: FormState,
  _form: FormData,
): Promise<FormState> {
  const opened = await openEndpoint(endpointId, resumeWebhook);
  if (!opened.ok) return opened.state;
  const { member, done: resumed } = opened;
  await logActivity({
    actor: member,
    action: 'notification.webhook_resume',
    summary: `Resumed the webhook to ${displayUrl(resumed.endpoint.url)}`,
    changes: { url: displayUrl(resumed.endpoint.url), waiting: resumed.notices.length },
  });
  revalidatePath(PAGE);
  // Its Resume button goes once it is active: the page says what was done.
  redirect(
    withNotice(PAGE, member, 'webhookResumed', {
      endpoint: displayUrl(resumed.endpoint.url),
      waiting: resumed.notices.length,
    }),
  );
}

/** Sends an endpoint a signed test request now and says how it answered. */
export async function testWebhookAction(
  endpointId: string,
  _previous: FormState,
  _form: FormData,
): Promise<FormState> {
  const opened = await openEndpoint(endpointId, testWebhook);
  if (!opened.ok) return opened.state;
  revalidatePath(PAGE);
  return { status: opened.done.ok ? 'success' : 'error', message: opened.done.message };
}
