import { Card } from '@/components/ui/card';
import { Notice } from '@/components/ui/notice';

/** A page a member's role does not give them: what it is, and who can. */
export function NotAllowed({ title, message }: { title: string; message: string }) {
  return (
    <div className="grid max-w-3xl gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <Card>
        <Notice tone="info">{message}</Notice>
      </Card>
    </div>
  );
}
