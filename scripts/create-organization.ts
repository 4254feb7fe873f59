// `npm run org:create -- --name "Northwind Property" --owner alice@northwind.example`
// Adds another organisation to this deployment and prints its first owner's invitation link
// (valid once, for 7 days; emailed too when SMTP_URL is set). Organisations never see each
// other. On the embedded PGlite database, stop the app first: one process at a time may open it.
import { parseArgs } from 'node:util';
import { emailSchema, organizationNameSchema } from '../lib/auth/schemas';
import { configuredTarget, getDatabase } from '../lib/db/client';
import { createOrganization, isMemberAnywhere } from '../lib/auth/store';
import { getEnv } from '../lib/platform/env';
import { createMemberInvitation } from '../lib/members/invitations';

const { values } = parseArgs({
  options: { name: { type: 'string' }, owner: { type: 'string' } },
});
const name = organizationNameSchema.safeParse(values.name ?? '');
const owner = emailSchema.safeParse(values.owner ?? '');
if (!name.success || !owner.success) {
  console.error(
    'Usage: npm run org:create -- --name "<organisation name>" --owner <owner email>\n' +
      [...(name.error?.issues ?? []), ...(owner.error?.issues ?? [])]
        .map((issue) => `  ${issue.message}`)
        .join('\n'),
  );
  process.exit(2);
}

const database = await getDatabase();
try {
  if (await isMemberAnywhere({ email: owner.data })) {
    console.error(`${owner.data} is already a member of an organisation here.`);
    process.exit(1);
  }
  const organization = await createOrganization({ name: name.data });
  const { link, emailed, invitation } = await createMemberInvitation({
    orgId: organization.id,
    orgName: organization.name,
    email: owner.data,
    role: 'owner',
    buildingIds: [],
    invitedBy: { userId: null, name: 'Setpoint' },
  });
  const where = configuredTarget(getEnv()).kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  console.log(
    [
      `Created ${organization.name} (${where}).`,
      `Invitation for its owner ${invitation.email}${emailed ? ' (emailed)' : ''}, valid until ${invitation.expiresAt.toISOString()}:`,
      link,
    ].join('\n'),
  );
} finally {
  await database.close();
}
