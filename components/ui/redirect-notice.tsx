import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import type { ShownNotice } from '@/lib/platform/notice';

/** What the action before the redirect said (`readNotice`), or nothing. */
export function RedirectNotice({ notice }: { notice: ShownNotice | null }) {
  if (!notice) return null;
  return (
    <Notice tone={notice.tone}>
      {notice.parts.map((part) =>
        typeof part === 'string' ? (
          part
        ) : (
          <Link key={part.href} href={part.href} className="font-medium underline">
            {part.text}
          </Link>
        ),
      )}
    </Notice>
  );
}
