'use client';

import { useActionState } from 'react';
import { CopyField } from '@/components/ui/copy-field';
import { ErrorSummary } from '@/components/ui/error-summary';
import { Field } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';
import {
  type BuildingChoice,
  BuildingChoices,
  type KindChoice,
  KindChoices,
  listOf,
} from './choices';

const idle: FormState = { status: 'idle' };

/** The fields a refused webhook's summary links to, in the form's order. */
const WEBHOOK_FIELDS = {
  url: 'Endpoint address',
  description: 'Description',
  kinds: { label: 'Which incidents and events', id: 'webhook-kinds-errors' },
  buildingScope: { label: 'Which buildings', id: 'webhook-buildings-errors' },
  buildingIds: { label: 'Which buildings', id: 'webhook-buildings-errors' },
} as const;

/** Adds a webhook endpoint; its signing secret comes back once, to copy. */
export function AddWebhookForm({
  action: bound,
  kinds,
  buildings,
  defaultKinds,
}: {
  action: FormAction;
  kinds: KindChoice[];
  buildings: BuildingChoice[];
  defaultKinds: string[];
}) {
  const [state, action] = useActionState(bound, idle);
  const done = state.status === 'success';
  const refill = done ? {} : (state.values ?? {});
  const errors = state.fieldErrors ?? {};
  return (
    <form action={action} className="grid gap-4" aria-label="Add a webhook" noValidate>
      <ErrorSummary state={state} fields={WEBHOOK_FIELDS} level={4} />
      {done && state.secret ? (
        <CopyField id="webhook-secret" label="Signing secret (shown once)" value={state.secret} />
      ) : null}
      <div key={done ? state.secret : 'editing'} className="grid gap-4">
        <Field
          label="Endpoint address"
          name="url"
          type="url"
          placeholder="https://example.com/setpoint-hook"
          autoComplete="off"
          required
          defaultValue={refill.url}
          errors={errors.url}
          hint="Setpoint POSTs JSON signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature)."
        />
        <Field
          label="Description"
          name="description"
          defaultValue={refill.description}
          errors={errors.description}
          hint="What receives it, for the people who read this page."
        />
        <KindChoices
          idPrefix="webhook"
          kinds={kinds}
          chosen={listOf(refill.kinds, defaultKinds)}
          errors={errors.kinds}
          legend="Which incidents and events"
        />
        <BuildingChoices
          idPrefix="webhook"
          buildings={buildings}
          scope={refill.buildingScope === 'chosen' ? 'chosen' : 'all'}
          chosen={listOf(refill.buildingIds, [])}
          allLabel="Every building"
          errors={errors.buildingIds ?? errors.buildingScope}
        />
      </div>
      <div>
        <SubmitButton pending="Adding…">Add webhook</SubmitButton>
      </div>
    </form>
  );
}
