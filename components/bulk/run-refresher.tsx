'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { type ProgressLike, progressSignature } from '@/lib/runs/words';

const POLL_MS = 1500;

/**
 * Keeps a run's page current while the run goes on: polls the run's progress (a database read)
 * and refreshes the page only when something changed, then stops once the run has finished.
 * `signature` is what the page was drawn from, in the form `progressSignature` gives.
 */
export function RunRefresher({ runId, signature }: { runId: string; signature: string }) {
  const router = useRouter();
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      const response = await fetch(`/bulk/runs/${runId}/progress`, { cache: 'no-store' }).catch(
        () => null,
      );
      if (stopped) return;
      if (response?.ok) {
        const progress = (await response.json()) as ProgressLike & { finished: boolean };
        if (stopped) return;
        if (progressSignature(progress) !== signature) {
          // The page comes back with a new signature, which starts a new poll.
          router.refresh();
          return;
        }
        if (progress.finished) return;
      }
      timer = setTimeout(tick, POLL_MS);
    };
    timer = setTimeout(tick, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [runId, signature, router]);
  return null;
}
