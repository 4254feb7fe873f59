'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import type { BulkFormState } from '@/lib/bulk/form';
import type { FormAction } from '@/lib/platform/forms';
import type { ConfigurationField } from '@/lib/settings/configuration';

const idle: BulkFormState = { status: 'idle' };

const thermostats = (n: number) => `${n} thermostat${n === 1 ? '' : 's'}`;

/**
 * The confirmation of a bulk change: how many thermostats, where, and the change in words. It
 * posts the reviewed selection and settings again; the server checks them again before it
 * starts the run. "Go back" returns to the form with everything kept.
 */
export function BulkReviewPanel({
  review,
  values,
  start,
  back,
  onBack,
}: {
  review: NonNullable<BulkFormState['review']>;
  values: Record<ConfigurationField, string>;
  start: FormAction<string>;
  back: (form: FormData) => void;
  /** With JavaScript, back to the form at once (it still holds everything). */
  onBack?: () => void;
}) {
  const [state, startAction, starting] = useActionState(
    start as (previous: BulkFormState, form: FormData) => Promise<BulkFormState>,
    idle,
  );
  const what = thermostats(review.count);
  return (
    <section aria-labelledby="review-heading" className="grid gap-4">
      <h2 id="review-heading" className="text-xl font-semibold">
        Apply to {what}?
      </h2>
      <div className="grid gap-1">
        <h3 className="text-sm font-semibold">The change</h3>
        <ul className="list-disc pl-5 text-sm">
          {review.changes.map((change) => (
            <li key={change}>{change}</li>
          ))}
        </ul>
        {review.gap ? <p className="text-sm">{review.gap}</p> : null}
        <p className="text-sm text-muted">Every other setting stays as each thermostat has it.</p>
      </div>
      <div className="grid gap-1">
        <h3 className="text-sm font-semibold">
          Where ({review.buildings.length} building{review.buildings.length === 1 ? '' : 's'})
        </h3>
        <ul className="list-disc pl-5 text-sm">
          {review.buildings.map((building) => (
            <li key={building.name}>
              {building.name}: {thermostats(building.count)}
            </li>
          ))}
        </ul>
      </div>
      <p className="text-sm text-muted">
        Sent in {review.requests} request{review.requests === 1 ? '' : 's'} of at most 25, a few at
        a time, as a job: you can leave this page, and every member can follow the run on its page.
      </p>
      <p className="text-sm">
        Sent this way, the settings it replaces are not read first, so the run cannot be undone. To
        keep an undo, plan the same change as a{' '}
        <Link href="/bulk/change" className="font-medium underline">
          one-off change
        </Link>{' '}
        instead: it reads each thermostat first (one more call each) and shows every change before
        it is sent.
      </p>
      {state.status === 'error' && state.message ? (
        <Notice tone="error">{state.message}</Notice>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <form action={startAction}>
          <Reviewed selection={review.selection} values={values} />
          <Button type="submit" disabled={starting}>
            {starting ? 'Starting…' : `Apply to ${what}`}
          </Button>
        </form>
        {onBack ? (
          <Button variant="secondary" onClick={onBack} disabled={starting}>
            Go back and change
          </Button>
        ) : (
          // Without JavaScript: back through the server, which answers with the form refilled.
          <form action={back}>
            <Reviewed selection={review.selection} values={values} />
            <input type="hidden" name="intent" value="edit" />
            <Button type="submit" variant="secondary">
              Go back and change
            </Button>
          </form>
        )}
      </div>
    </section>
  );
}

/** What was reviewed, posted again as it was. */
function Reviewed({
  selection,
  values,
}: {
  selection: string;
  values: Record<ConfigurationField, string>;
}) {
  return (
    <>
      <input type="hidden" name="selection" value={selection} />
      {Object.entries(values).map(([field, value]) => (
        <input key={field} type="hidden" name={field} value={value} />
      ))}
    </>
  );
}
