import {
  INCIDENT_KIND_NAMES,
  INCIDENT_KINDS,
  isUrgent,
  type Rules,
} from '@/lib/notifications/kinds';
import type { FormAction } from '@/lib/platform/forms';
import { CardSection } from './card-section';
import { RulesForm } from './rules-form';

/** The organisation's rules (`#rules`), for owners and admins: each kind on or off, and its delay. */
export function RulesSection({ rules, action }: { rules: Rules; action: FormAction }) {
  return (
    <CardSection
      id="rules"
      title="Rules"
      intro={
        <>
          For the whole organisation: which kinds of incident are opened, and how many minutes a
          cause must last before anyone is told (a blip that clears sooner tells no one). The
          conditions are those of Needs attention.
        </>
      }
    >
      <RulesForm
        action={action}
        rules={INCIDENT_KIND_NAMES.map((kind) => ({
          kind,
          name: INCIDENT_KINDS[kind].name,
          help: INCIDENT_KINDS[kind].help,
          urgent: isUrgent(kind),
          ...rules[kind],
        }))}
      />
    </CardSection>
  );
}
