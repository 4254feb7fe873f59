// `npm run password:reset -- --email owner@example.com`
// Issues a link to choose a new password for a member of any organisation on this deployment,
// and prints it: the way back in for someone locked out (a sole owner, say) where Setpoint does
// not send email. The link works once, for 30 minutes; using it signs the account out
// everywhere. Pass it on privately: whoever holds it can set the password. The organisation's
// activity log records that it was issued. On the embedded PGlite database, stop the app first:
// one process at a time may open it.
import { parseArgs } from 'node:util';
import { issuePasswordReset, recordIssuedByOperator } from '../lib/auth/password-reset';
import { emailSchema } from '../lib/auth/schemas';
import { getDatabase } from '../lib/db/client';
import { findResetAccount } from '../lib/auth/password-resets-store';
import { getEnv } from '../lib/platform/env';

const { values } = parseArgs({ options: { email: { type: 'string' } } });
const email = emailSchema.safeParse(values.email ?? '');
if (!email.success) {
  console.error(
    'Usage: npm run password:reset -- --email <email of the account>\n' +
      email.error.issues.map((issue) => `  ${issue.message}`).join('\n'),
  );
  process.exit(2);
}

const database = await getDatabase();
try {
  const account = await findResetAccount({ email: email.data });
  if (!account) {
    console.error(`${email.data} is not a member of any organisation here.`);
    process.exit(1);
  }
  if (!account.hasPassword) {
    console.error(
      `${account.email} has no password: it signs in with ${getEnv().OIDC_DISPLAY_NAME}. A password would stop that; nothing was issued.`,
    );
    process.exit(1);
  }
  const { link, expiresAt } = await issuePasswordReset({ account });
  await recordIssuedByOperator(account);
  console.log(
    [
      `Password reset link for ${account.name} <${account.email}> of ${account.orgName}, valid once until ${expiresAt.toISOString()} (30 minutes):`,
      link,
    ].join('\n'),
  );
} finally {
  await database.close();
}
