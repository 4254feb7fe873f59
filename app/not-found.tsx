import { buttonClass } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { Logo } from '@/components/ui/logo';

export default function NotFound() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 px-4 text-center">
      <Logo className="text-xl" />
      <div>
        <h1 className="text-2xl font-semibold">Page not found</h1>
        <p className="mt-2 text-sm text-muted">
          There is nothing at this address. It may have moved, or the link may be mistyped.
        </p>
      </div>
      <Link href="/" className={buttonClass('secondary')}>
        Back to the overview
      </Link>
    </main>
  );
}
