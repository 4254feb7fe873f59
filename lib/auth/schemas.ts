import { z } from 'zod';

const nameSchema = z
  .string()
  .trim()
  .min(1, 'Enter your name.')
  .max(100, 'Use at most 100 characters.');
const passwordSchema = z
  .string()
  .min(12, 'Use at least 12 characters.')
  .max(256, 'Use at most 256 characters.');
const samePassword = {
  path: ['confirm'],
  message: 'The passwords do not match.',
};

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
    password: passwordSchema,
    confirm: z.string(),
  })
  .refine((values) => values.password === values.confirm, samePassword);

export type AcceptInvitationField = 'name' | 'password' | 'confirm';

/** Accepting an invitation with a password: the email is the invitation's. */
export const acceptInvitationSchema = z
  .object({ name: nameSchema, password: passwordSchema, confirm: z.string() })
  .refine((values) => values.password === values.confirm, samePassword);
