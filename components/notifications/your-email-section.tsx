import { ButtonForm } from '@/components/ui/button-form';
import type { Member } from '@/lib/auth/store';
import { formatMinutes } from '@/lib/notifications/quiet-hours';
import type { Subscription } from '@/lib/notifications/store';
import type { FormAction } from '@/lib/platform/forms';
import { timeZoneName } from '@/lib/platform/words';
import { CardSection } from './card-section';
import type { BuildingChoice, KindChoice } from './choices';
import { SubscriptionForm } from './subscription-form';

/**
 * The member's own email (`#your-email`): how and of what they are emailed, their quiet hours,
 * and a test email where email is set up.
 */
export function YourEmailSection({
  member,
  subscription,
  kinds,
  buildings,
  defaultKinds,
  emailOn,
  save,
  sendTest,
}: {
  member: Member;
  subscription: Subscription | null;
  kinds: KindChoice[];
  buildings: BuildingChoice[];
  /** The kinds a new subscription starts with: those the organisation's rules have on. */
  defaultKinds: string[];
  /** Whether this Setpoint can send email at all. */
  emailOn: boolean;
  save: FormAction;
  sendTest: FormAction;
}) {
  return (
    <CardSection
      id="your-email"
      title="Your email"
      intro={
        <>
          To {member.email}, only of {member.buildingIds === null ? 'the' : 'your'} buildings you
          can see.
          {subscription?.mode === 'off' || !subscription ? ' You are not emailed now.' : ''}
          {subscription?.quietStart != null && subscription.quietEnd != null
            ? ` Quiet hours ${formatMinutes(subscription.quietStart)} to ${formatMinutes(subscription.quietEnd)}.`
            : ''}
        </>
      }
    >
      <SubscriptionForm
        action={save}
        kinds={kinds}
        buildings={buildings}
        allBuildingsLabel={
          member.buildingIds === null
            ? 'Every building'
            : 'Every building I look after, as they change'
        }
        zoneName={timeZoneName(member.timeZone)}
        initial={{
          mode: subscription?.mode ?? 'off',
          kinds: subscription?.kinds ?? defaultKinds,
          buildingScope: subscription?.buildingIds ? 'chosen' : 'all',
          buildingIds: subscription?.buildingIds ?? [],
          digestHour: String(subscription?.digestHour ?? 7),
          quietStart:
            subscription?.quietStart != null ? formatMinutes(subscription.quietStart) : '',
          quietEnd: subscription?.quietEnd != null ? formatMinutes(subscription.quietEnd) : '',
        }}
      />
      {emailOn ? (
        <div className="border-t border-slate-100 pt-4 dark:border-slate-800">
          <ButtonForm action={sendTest} label="Send me a test email" pending="Sending…" />
        </div>
      ) : null}
    </CardSection>
  );
}
