import { buttonClass } from '@/components/ui/button';
import { Link } from '@/components/ui/link';

/** Not found inside the app: the header (with the logo) is already on the page. */
export default function NotFound() {
  return (
    <div className="grid max-w-xl gap-4 py-8">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-sm text-muted">
        There is nothing at this address for you: it may have moved, the link may be mistyped, or it
        may belong to buildings you do not look after.
      </p>
      <div>
        <Link href="/" className={buttonClass('secondary')}>
          Back to the overview
        </Link>
      </div>
    </div>
  );
}
