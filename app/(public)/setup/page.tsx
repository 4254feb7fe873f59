import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { SetupForm } from '@/components/auth/setup-form';
import { Card } from '@/components/ui/card';
import { countUsers } from '@/lib/auth/store';
import { createFirstAccount } from './actions';

export const metadata: Metadata = { title: 'Set up Setpoint' };

export default async function SetupPage() {
  await connection();
  // Setup exists only until the first account does.
  if ((await countUsers()) > 0) redirect('/sign-in');
  return (
    <Card>
      <h1 className="text-xl font-semibold">Welcome to Setpoint</h1>
      <p className="mt-1 mb-6 text-sm text-muted">
        Create your organisation and its first account, its owner. You will sign in with it, connect
        your thermostat service and invite your team.
      </p>
      <SetupForm action={createFirstAccount} />
    </Card>
  );
}
