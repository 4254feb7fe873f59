export function Logo({ className = '' }: { className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 font-semibold tracking-tight ${className}`}>
      <svg viewBox="0 0 32 32" aria-hidden="true" className="size-7 shrink-0">
        <circle cx="16" cy="16" r="14" className="fill-brand-600" />
        <path
          d="M16 7a9 9 0 1 0 9 9"
          fill="none"
          stroke="white"
          strokeWidth="3"
          strokeLinecap="round"
        />
        <circle cx="16" cy="16" r="3" fill="white" />
      </svg>
      <span>Setpoint</span>
    </span>
  );
}
