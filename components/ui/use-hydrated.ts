'use client';

import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * True once React runs in the browser, false while rendering on the server and before
 * hydration: for forms that offer a little more with JavaScript and still work without it.
 */
export const useHydrated = () =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
