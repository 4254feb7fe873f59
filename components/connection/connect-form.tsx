'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { buttonClass } from '@/components/ui/button';

/**
 * Starts the authorization redirect (POST /api/connect). It comes back to `returnTo`, or to the
 * page it was pressed on. A plain form: it works before and without JavaScript.
 */
export function ConnectForm({
  label,
  returnTo,
  variant = 'primary',
}: {
  label: string;
  returnTo?: string;
  variant?: 'primary' | 'secondary';
}) {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const here = search ? `${pathname}?${search}` : pathname;
  return (
    <form action="/api/connect" method="post">
      <input type="hidden" name="returnTo" value={returnTo ?? here} />
      <button type="submit" className={buttonClass(variant)}>
        {label}
      </button>
    </form>
  );
}
