'use client';

import { useActionState, useState } from 'react';
import {
  type BulkBuilding,
  type PickerGroup,
  ThermostatPicker,
} from '@/components/bulk/thermostat-picker';
import { ErrorSummary } from '@/components/ui/error-summary';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';

const idle: FormState = { status: 'idle' };

/**
 * The thermostats to plan a template on, and the one button that plans it. Planning only reads:
 * the plan is shown on the run's page, and nothing is sent until a member applies it there.
 */
export function PlanForm({
  buildings,
  groups,
  initialSelected,
  plan,
}: {
  buildings: BulkBuilding[];
  groups: PickerGroup[];
  initialSelected: string[];
  plan: FormAction;
}) {
  const [state, action] = useActionState(plan, idle);
  const [selected, setSelected] = useState(() => new Set(initialSelected));
  return (
    <form action={action} className="grid gap-6">
      <ErrorSummary state={state} />
      <ThermostatPicker
        buildings={buildings}
        groups={groups}
        selected={selected}
        onChange={setSelected}
      />
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending="Starting the plan…">Plan on the selected thermostats</SubmitButton>
        <p className="text-sm text-muted">
          Setpoint reads each one first and shows what would change. Nothing is sent until you apply
          the plan.
        </p>
      </div>
    </form>
  );
}
