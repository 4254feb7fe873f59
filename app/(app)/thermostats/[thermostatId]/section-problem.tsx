import { ServiceProblem } from '@/components/connection/service-problem';
import { Card } from '@/components/ui/card';
import type { Member } from '@/lib/auth/session';

/**
 * A thermostat section whose values the service could not give: its heading, and the failure in
 * words (with the way back when the connection ended). Used only by this route's pages.
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
