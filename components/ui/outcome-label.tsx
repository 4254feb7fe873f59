import { OUTCOMES, type OutcomeKind, type Tone } from '@/lib/outcomes';

const TONE_CLASS: Record<Tone, string> = {
  success: 'text-success',
  caution: 'text-caution',
  danger: 'text-danger',
  muted: 'text-muted',
};

/** The text colour of an outcome kind, for a heading or link that shows it. */
export function outcomeClass(kind: OutcomeKind): string {
  return TONE_CLASS[OUTCOMES[kind].tone];
}

/**
 * An outcome in its tone: the kind's own word, or `label` where a fuller one says more (a run's
 * "Done with 2 failures", an entry's "Failed: the service is unavailable").
 */
export function OutcomeLabel({ kind, label }: { kind: OutcomeKind; label?: string }) {
  return (
    <span className={`font-medium ${outcomeClass(kind)}`}>{label ?? OUTCOMES[kind].label}</span>
  );
}
