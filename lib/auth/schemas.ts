import { z } from 'zod';
import { PASSWORD_PROBLEMS, type PasswordContext, passwordProblem } from './password-policy';

const nameSchema = z
  .string()
  .trim()
  .min(1, 'Enter your name.')
  .max(100, 'Use at most 100 characters.');
/**
 * A new password and its confirmation, checked against the password policy
 * (lib/auth/password-policy.ts) in the context of the account: its email and organisation. The
 * check runs on the whole form (its words go under the password), so that it sees the email and
 * organisation typed beside it; it is asynchronous (the common list loads on first use): parse
 * with `safeParseAsync`.
 */
async function checkNewPassword(
  values: { password: string; confirm: string },
  context: PasswordContext,
  ctx: z.RefinementCtx,
) {
  const problem = await passwordProblem(values.password, context);
  if (problem)
    ctx.addIssue({ code: 'custom', path: ['password'], message: PASSWORD_PROBLEMS[problem] });
  if (values.password !== values.confirm) {
    ctx.addIssue({ code: 'custom', path: ['confirm'], message: 'The passwords do not match.' });
  }
}

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email('Enter a valid email address.').max(254, 'Use at most 254 characters.'));

export const organizationNameSchema = z
  .string()
  .trim()
  .min(1, 'Enter your organisation’s name.')
  .max(100, 'Use at most 100 characters.');

export type SetupField = 'orgName' | 'name' | 'email' | 'password' | 'confirm';

/** First-run setup: the organisation and its owner. */
export const setupSchema = z
  .object({
    orgName: organizationNameSchema,
    name: nameSchema,
    email: emailSchema,
    password: z.string(),
    confirm: z.string(),
  })
  .superRefine((values, ctx) =>
    checkNewPassword(values, { email: values.email, orgName: values.orgName }, ctx),
  );

export type AcceptInvitationField = 'name' | 'password' | 'confirm';

/** Accepting an invitation with a password: the email and organisation are the invitation's. */
export const acceptInvitationSchema = (invitation: PasswordContext) =>
  z
    .object({ name: nameSchema, password: z.string(), confirm: z.string() })
    .superRefine((values, ctx) => checkNewPassword(values, invitation, ctx));

export type ResetPasswordField = 'password' | 'confirm';

/** A new password through a reset link: the account's email and organisation are the link's. */
export const resetPasswordSchema = (account: PasswordContext) =>
  z
    .object({ password: z.string(), confirm: z.string() })
    .superRefine((values, ctx) => checkNewPassword(values, account, ctx));

/** Asking for a reset link: only an email. */
export const forgotPasswordSchema = z.object({ email: emailSchema });
