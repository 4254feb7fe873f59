import { z } from 'zod';

export type SetupField = 'name' | 'email' | 'password' | 'confirm';

export const setupSchema = z
  .object({
    name: z.string().trim().min(1, 'Enter your name.').max(100, 'Use at most 100 characters.'),
    email: z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address.').max(254)),
    password: z
      .string()
      .min(12, 'Use at least 12 characters.')
      .max(256, 'Use at most 256 characters.'),
    confirm: z.string(),
  })
  .refine((values) => values.password === values.confirm, {
    path: ['confirm'],
    message: 'The passwords do not match.',
  });
