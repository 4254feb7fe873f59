import { Link } from '@/components/ui/link';
import {
  LOG_PER_PAGE,
  type NotificationsView,
  notificationsHref,
} from '@/lib/notifications/page-view';
import type { LogEntry } from '@/lib/notifications/store';
import { CardSection } from './card-section';
import { DeliveryLog } from './delivery-log';

/**
 * The delivery log (`#delivery-log`), a page at a time: an owner's or admin's whole (every notice
 * to every member and webhook), a member's own ("Your notices").
 */
export function DeliveryLogSection({
  entries,
  older,
  view,
  manages,
  zone,
}: {
  /** The page shown, newest first. */
  entries: LogEntry[];
  /** Whether a page of older notices follows. */
  older: boolean;
  /** The view in the address, its `log` the page shown. */
  view: NotificationsView;
  /** Whether the reader sees the organisation's whole log, not only their own notices. */
  manages: boolean;
  /** The reader's zone, for the times. */
  zone: string;
}) {
  return (
    <CardSection
      id="delivery-log"
      title={manages ? 'Delivery log' : 'Your notices'}
      gap="gap-3"
      intro={
        manages
          ? `Every notice to every member and webhook, newest first, ${LOG_PER_PAGE} a page.`
          : `What Setpoint sent you, newest first, ${LOG_PER_PAGE} a page.`
      }
    >
      {entries.length === 0 ? (
        <p className="text-sm">{view.log > 1 ? 'Nothing older.' : 'Nothing sent yet.'}</p>
      ) : (
        <DeliveryLog
          entries={entries}
          caption={manages ? 'Delivery log' : 'Your notices'}
          zone={zone}
        />
      )}
      {view.log > 1 || older ? (
        <nav aria-label="Delivery log pages" className="flex flex-wrap gap-4 text-sm">
          {view.log > 1 ? (
            <Link href={notificationsHref(view, { log: 1 }, 'delivery-log')} className="underline">
              Newest
            </Link>
          ) : null}
          {older ? (
            <Link
              href={notificationsHref(view, { log: view.log + 1 }, 'delivery-log')}
              className="underline"
            >
              Older notices
            </Link>
          ) : null}
        </nav>
      ) : null}
    </CardSection>
  );
}
