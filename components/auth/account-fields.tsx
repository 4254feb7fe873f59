import { Field } from '@/components/ui/field';
import { PASSWORD_HINT } from '@/lib/auth/password-hint';
import type { SetupField } from '@/lib/auth/schemas';
import type { FormState } from '@/lib/platform/forms';

/** How the first-run setup and an invitation ask for each field of a new account. */
const ACCOUNT_FIELDS = {
  orgName: {
    label: 'Organisation',
    autoComplete: 'organization',
    hint: 'Your property-management company, as your team knows it.',
  },
  name: { label: 'Your name', autoComplete: 'name' },
  email: { label: 'Email', type: 'email', autoComplete: 'username' },
  password: {
    label: 'Password',
    type: 'password',
    autoComplete: 'new-password',
    hint: PASSWORD_HINT,
  },
  confirm: { label: 'Confirm password', type: 'password', autoComplete: 'new-password' },
} satisfies Record<
  SetupField,
  { label: string; type?: string; autoComplete: string; hint?: string }
>;

const SECRET: readonly SetupField[] = ['password', 'confirm'];

/**
 * An account's email as every form asks for it (signing in, asking for a reset link, a new
 * account): password managers take it as the username.
 */
export function EmailField({ defaultValue, errors }: { defaultValue?: string; errors?: string[] }) {
  return (
    <Field
      name="email"
      {...ACCOUNT_FIELDS.email}
      required
      defaultValue={defaultValue}
      errors={errors}
    />
  );
}

/** The given fields as a refused form's error summary names them (their labels). */
export function accountSummaryFields(fields: readonly SetupField[]): Record<string, string> {
  return Object.fromEntries(fields.map((name) => [name, ACCOUNT_FIELDS[name].label]));
}

/** The given fields of a new account, all required, in order; a password is never refilled. */
export function AccountFields<Name extends SetupField>({
  fields,
  state,
}: {
  fields: readonly Name[];
  state: FormState<Name>;
}) {
  return fields.map((name) => (
    <Field
      key={name}
      name={name}
      {...ACCOUNT_FIELDS[name]}
      required
      defaultValue={SECRET.includes(name) ? undefined : state.values?.[name]}
      errors={state.fieldErrors?.[name]}
    />
  ));
}
