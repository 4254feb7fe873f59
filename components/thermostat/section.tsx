import type { ReactNode } from 'react';
import { ServiceProblem } from '@/components/connection/service-problem';
import { Card } from '@/components/ui/card';
import type { Member } from '@/lib/auth/store';

// The parts the sections of a thermostat's pages share (schedule, comfort settings, configuration,
// access control, alerts).

/** A section's heading and the sentence under it that says what it does. */
export function SectionHeading({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h2 className="text-lg font-medium">{title}</h2>
      <p className="mt-1 text-sm text-muted">{children}</p>
    </div>
  );
}

/**
 * A thermostat section whose values the service could not give: its heading, and the failure in
 * words (with the way back when the connection ended).
 */
export function SectionProblem({
  title,
  error,
  member,
}: {
  title: string;
  error: unknown;
  member: Member;
}) {
  return (
    <Card className="grid gap-3">
      <h2 className="text-lg font-medium">{title}</h2>
      <ServiceProblem error={error} member={member} />
    </Card>
  );
}
