import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';

/**
 * One section of the notifications page, as its contents link to it (`#id`): a card with a
 * heading and its intro.
 */
export function CardSection({
  id,
  title,
  intro,
  gap = 'gap-4',
  children,
}: {
  id: string;
  title: string;
  intro: ReactNode;
  gap?: 'gap-3' | 'gap-4';
  children?: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-4">
      <Card className={`grid ${gap}`}>
        <h2 id={`${id}-heading`} className="text-lg font-medium">
          {title}
        </h2>
        <p className="text-sm text-muted">{intro}</p>
        {children}
      </Card>
    </section>
  );
}
