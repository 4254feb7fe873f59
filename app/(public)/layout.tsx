import type { ReactNode } from 'react';
import { Logo } from '@/components/ui/logo';

export default function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-8 px-4 py-12">
      <Logo className="text-2xl" />
      <div className="w-full max-w-sm">{children}</div>
      <p className="max-w-sm text-center text-xs text-muted">
        Setpoint runs the thermostats of your buildings through your thermostat service account.
      </p>
    </main>
  );
}
