'use client';

import NextLink from 'next/link';
import { type ComponentProps, useState } from 'react';

/**
 * next/link, prefetching once the pointer is over the link or it has the keyboard's focus (the
 * Next.js prefetching guide's hover pattern), still ahead of the click, rather than as soon as it
 * comes into view. Every page of Setpoint is dynamic, so a prefetch is a server render with its
 * database reads: prefetched on sight, a page's links cost each view of it a render per link,
 * twice over (again after hydration). `prefetch={false}` still never prefetches.
 */
export function Link({
  prefetch,
  onMouseEnter,
  onFocus,
  ...props
}: ComponentProps<typeof NextLink>) {
  const [wanted, setWanted] = useState(false);
  return (
    <NextLink
      {...props}
      prefetch={prefetch === false || !wanted ? false : (prefetch ?? null)}
      onMouseEnter={(event) => {
        setWanted(true);
        onMouseEnter?.(event);
      }}
      onFocus={(event) => {
        setWanted(true);
        onFocus?.(event);
      }}
    />
  );
}
