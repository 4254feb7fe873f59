import type { Metadata } from 'next';
import { RunPage, type RunPageProps } from '../../run-page';

export const metadata: Metadata = { title: 'Template run' };

/**
 * A template's run, its plan first (run-page.tsx): the same page as any run's, at an address
 * among the template's, so the navigation shows Templates as the section it is in.
 */
export default function TemplateRunPage(props: RunPageProps) {
  return <RunPage {...props} section="templates" />;
}
