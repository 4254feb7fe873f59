import type { Metadata } from 'next';
import { RunPage, type RunPageProps } from '../../run-page';

export const metadata: Metadata = { title: 'Bulk run' };

/** A bulk change's run: a configuration change, a one-off change or an undo (run-page.tsx). */
export default function BulkRunPage(props: RunPageProps) {
  return <RunPage {...props} section="bulk" />;
}
