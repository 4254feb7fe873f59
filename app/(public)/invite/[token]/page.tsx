import type { Metadata } from 'next';
import { connection } from 'next/server';
import { AcceptInvitationForm } from '@/components/auth/accept-invitation-form';
import { ButtonForm } from '@/components/ui/button-form';
import { Card } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import { ssoDisplayName } from '@/lib/auth/options';
import { ROLE_DESCRIPTIONS, ROLE_NAMES } from '@/lib/auth/permissions';
import { INVITATION_PROBLEMS, readInvitation } from '@/lib/members/invitations';
import { acceptInvitationAction, joinWithSsoAction } from './actions';

// The token in this page's address goes to no other site: Referrer-Policy is same-origin everywhere.
export const metadata: Metadata = { title: 'Join your team' };

/** An invitation's page: what it grants and a form to accept it, or why it cannot be used. */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const { token } = await params;
  const read = await readInvitation(token);
  if (!read.ok) {
    return (
      <Card className="grid gap-4">
        <h1 className="text-xl font-semibold">This invitation cannot be used</h1>
        <Notice tone="error">{INVITATION_PROBLEMS[read.problem]}</Notice>
        <Link href="/sign-in" className="text-sm underline">
          Go to sign-in
        </Link>
      </Card>
    );
  }
  const { invitation } = read;
  const sso = ssoDisplayName();
  return (
    <Card className="grid gap-4">
      <div>
        <h1 className="text-xl font-semibold">Join {invitation.orgName}</h1>
        <p className="mt-1 text-sm text-muted">
          {invitation.invitedByName} invited <strong>{invitation.email}</strong> as{' '}
          {ROLE_NAMES[invitation.role].toLowerCase()}: {ROLE_DESCRIPTIONS[invitation.role]}
        </p>
      </div>
      <AcceptInvitationForm
        action={acceptInvitationAction.bind(null, token)}
        email={invitation.email}
      />
      {sso ? (
        <div className="grid gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
          <p className="text-sm">
            Or join without a password: sign in with {sso} as {invitation.email}.
          </p>
          <ButtonForm
            action={joinWithSsoAction.bind(null, token)}
            label={`Join with ${sso}`}
            pending="Opening sign-in…"
          />
        </div>
      ) : null}
    </Card>
  );
}
