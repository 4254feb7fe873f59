'use client';

import { useActionState } from 'react';
import { ErrorSummary } from '@/components/ui/error-summary';
import { Field, type Option, SelectField } from '@/components/ui/field';
import { Fieldset, RadioGroup } from '@/components/ui/form-parts';
import { Link } from '@/components/ui/link';
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

export type SubscriptionValues = {
  mode: string;
  kinds: string[];
  buildingScope: 'all' | 'chosen';
  buildingIds: string[];
  digestHour: string;
  quietStart: string;
  quietEnd: string;
};

/** The fields a refused subscription's summary links to, in the form's order. */
const SUBSCRIPTION_FIELDS = {
  mode: { label: 'Email me', id: 'field-mode-errors' },
  kinds: { label: 'Which incidents', id: 'subscription-kinds-errors' },
  buildingScope: { label: 'Which buildings', id: 'subscription-buildings-errors' },
  buildingIds: { label: 'Which buildings', id: 'subscription-buildings-errors' },
  quietStart: 'Quiet hours from',
  quietEnd: 'Quiet hours until',
  digestHour: 'Send the digest at',
} as const;

const HOURS: Option[] = Array.from({ length: 24 }, (_, hour) => ({
  value: String(hour),
  label: `${String(hour).padStart(2, '0')}:00`,
}));

/** A member's own email notifications: how, which incidents, which of their buildings, when. */
export function SubscriptionForm({
  action: bound,
  initial,
  kinds,
  buildings,
  zoneName,
  allBuildingsLabel,
}: {
  action: FormAction;
  initial: SubscriptionValues;
  kinds: KindChoice[];
  buildings: BuildingChoice[];
  /** The member's own zone, in words: the digest's hour and quiet hours keep it. */
  zoneName: string;
  allBuildingsLabel: string;
}) {
  const [state, action] = useActionState(bound, idle);
  const refill = state.values ?? {};
  const errors = state.fieldErrors ?? {};
  const value = (field: Exclude<keyof SubscriptionValues, 'kinds' | 'buildingIds'>) =>
    refill[field] ?? initial[field];
  return (
    <form action={action} className="grid gap-4" aria-label="Your email notifications" noValidate>
      <ErrorSummary state={state} fields={SUBSCRIPTION_FIELDS} level={3} />
      <RadioGroup
        name="mode"
        legend="Email me"
        defaultValue={value('mode')}
        errors={errors.mode}
        options={[
          { value: 'off', label: 'Never' },
          { value: 'immediate', label: 'As incidents open and clear' },
          { value: 'digest', label: 'In a daily digest' },
        ]}
        hint="Urgent incidents (freeze risk, overheating, the service connection ending) are emailed at once, whichever you choose."
      />
      <KindChoices
        idPrefix="subscription"
        kinds={kinds}
        chosen={listOf(refill.kinds, initial.kinds)}
        errors={errors.kinds}
      />
      <BuildingChoices
        idPrefix="subscription"
        buildings={buildings}
        scope={value('buildingScope') === 'chosen' ? 'chosen' : 'all'}
        chosen={listOf(refill.buildingIds, initial.buildingIds)}
        allLabel={allBuildingsLabel}
        errors={errors.buildingIds ?? errors.buildingScope}
      />
      <Fieldset
        legend="When"
        description="Quiet hours follow each building’s own time zone; what opens in them waits until they end, but urgent incidents still go out."
      >
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label="Quiet hours from"
            name="quietStart"
            type="time"
            defaultValue={value('quietStart')}
            errors={errors.quietStart}
            hint="Leave both empty for none."
          />
          <Field
            label="Quiet hours until"
            name="quietEnd"
            type="time"
            defaultValue={value('quietEnd')}
            errors={errors.quietEnd}
          />
          <SelectField
            label="Send the digest at"
            name="digestHour"
            defaultValue={value('digestHour')}
            errors={errors.digestHour}
            options={HOURS}
          />
        </div>
        <p className="text-xs text-muted">
          In your time zone, {zoneName} (a building’s incidents keep quiet hours in the building’s
          zone).{' '}
          <Link href="/account" className="underline">
            Change your time zone
          </Link>
        </p>
      </Fieldset>
      <div>
        <SubmitButton pending="Saving…">Save my notifications</SubmitButton>
      </div>
    </form>
  );
}
