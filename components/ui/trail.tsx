import { Fragment, type ReactNode } from 'react';
import { Link } from '@/components/ui/link';

/** Where a page sits, above its title: the pages it is under, each a link followed by a slash. */
export function Trail({ steps }: { steps: readonly { href: string; label: ReactNode }[] }) {
  return (
    <p className="text-sm text-muted">
      {steps.map((step, index) => (
        <Fragment key={step.href}>
          {index > 0 ? ' ' : null}
          <Link href={step.href} className="hover:underline">
            {step.label}
          </Link>{' '}
          /
        </Fragment>
      ))}
    </p>
  );
}
