'use client';

import { signOut } from 'next-auth/react';
import { useActionState } from 'react';

function initials(name: string) {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]?.toUpperCase())
      .join('') || '?'
  );
}

/** The signed-in manager's menu: who is signed in, and sign-out. A native <details> keeps it
 *  keyboard- and screen-reader-friendly without a menu library. */
export function UserMenu({
  name,
  email,
  organization,
}: {
  name: string;
  email: string;
  /** The organisation and the member's role in it. */
  organization: string;
}) {
  const [, signOutAction, pending] = useActionState(async () => {
    await signOut({ callbackUrl: '/sign-in' });
  }, undefined);
  return (
    <details className="group relative">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-full p-1 hover:bg-slate-100 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden">
        {/* The name a screen reader hears; the initials and the visible name are decoration. */}
        <span className="sr-only">Account menu for {name}</span>
        <span
          aria-hidden="true"
          className="grid size-8 place-items-center rounded-full bg-brand-600 text-xs font-semibold text-white"
        >
          {initials(name)}
        </span>
        <span aria-hidden="true" className="hidden max-w-40 truncate text-sm font-medium md:inline">
          {name}
        </span>
      </summary>
      <div className="absolute right-0 mt-2 w-64 rounded-xl border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900">
        <div className="border-b border-slate-100 px-3 py-2 dark:border-slate-800">
          <p className="truncate text-sm font-medium">{name}</p>
          <p className="truncate text-xs text-slate-600 dark:text-slate-400">{email}</p>
          <p className="mt-1 truncate text-xs text-slate-600 dark:text-slate-400">{organization}</p>
        </div>
        <form action={signOutAction}>
          <button
            type="submit"
            disabled={pending}
            className="mt-1 w-full rounded-md px-3 py-2 text-left text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
          >
            {pending ? 'Signing out…' : 'Sign out'}
          </button>
        </form>
      </div>
    </details>
  );
}
