import { Link } from '@/components/ui/link';

/** Initials for the avatar: the first letters of the first two words of the name. */
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

/**
 * The signed-in member's menu: who is signed in, in which organisation, their account page and
 * sign-out. A native
 * <details> keeps it keyboard- and screen-reader-friendly without a menu library, and sign-out
 * is a plain form posting to next-auth with its CSRF token, so it works without JavaScript.
 */
export function UserMenu({
  name,
  email,
  organization,
  csrfToken,
}: {
  name: string;
  email: string;
  /** The organisation and the member's role in it. */
  organization: string;
  csrfToken: string;
}) {
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
          <p className="truncate text-xs text-muted">{email}</p>
          <p className="mt-1 truncate text-xs text-muted">{organization}</p>
        </div>
        <Link
          href="/account"
          className="mt-1 block rounded-md px-3 py-2 text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
        >
          Your account: time zone and units
        </Link>
        <form method="post" action="/api/auth/signout">
          <input type="hidden" name="csrfToken" value={csrfToken} />
          <input type="hidden" name="callbackUrl" value="/sign-in" />
          <button
            type="submit"
            className="mt-1 w-full rounded-md px-3 py-2 text-left text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
          >
            Sign out
          </button>
        </form>
      </div>
    </details>
  );
}
