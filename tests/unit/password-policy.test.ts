import { describe, expect, it } from 'vitest';
import {
  contextProblem,
  isCommonPassword,
  isPredictablePattern,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_PROBLEMS,
  passwordProblem,
} from '@/lib/auth/password-policy';
import { acceptInvitationSchema, resetPasswordSchema, setupSchema } from '@/lib/auth/schemas';
import { fieldErrorsOf } from '@/lib/platform/forms';

/**
 * The password policy (issue 35, item 11): length rather than character classes, a list of
 * common passwords from a kept package, and nothing of the account's own context; applied by
 * every form where a password is chosen (first-run setup, an invitation, a reset link).
 */
describe('the password policy', () => {
  it('counts length, not character classes: 15 to 128 characters as a person sees them', async () => {
    expect(PASSWORD_MIN_LENGTH).toBe(15);
    expect(PASSWORD_MAX_LENGTH).toBe(128);
    // No digit, capital or symbol needed; spaces are welcome.
    expect(await passwordProblem('correct horse battery staple')).toBeNull();
    expect(await passwordProblem('plumbing tulip ok')).toBeNull();
    expect(await passwordProblem('fourteen chars')).toBe('short');
    // Counted in characters, not UTF-16 units: 14 emoji are 28 units but 14 characters.
    const emoji = '🔥🧊🏠🏢🔑📈📉⏰🧯💡🚪🪟🛁🧹';
    expect(emoji.length).toBeGreaterThan(PASSWORD_MIN_LENGTH);
    expect(await passwordProblem(emoji)).toBe('short');
    expect(await passwordProblem(`${emoji}🪴`)).toBeNull();
    expect(await passwordProblem(`${'ж'.repeat(7)} плита и окно`)).toBeNull();
    expect(await passwordProblem('wind and rain, '.repeat(9).slice(0, 129))).toBe('long');
    const longest = Array.from({ length: 60 }, (_, i) => `tulip${i}`)
      .join(' ')
      .slice(0, PASSWORD_MAX_LENGTH);
    expect(await passwordProblem(longest)).toBeNull();
  });

  it('refuses common passwords from the list, without case, spaces or the digits added to them', async () => {
    // "password1234" is the issue's example: now too short, and common at any length.
    expect(await passwordProblem('password1234')).toBe('short');
    expect(await isCommonPassword('password1234')).toBe(true);
    for (const common of [
      'passwordpassword',
      'PasswordPassword',
      'password password',
      '1qaz2wsx3edc4rfv',
      'QWERTYUIOP12345',
      'Password12345678',
      'Baseball2024!!!',
      '  iloveyou!!!!!!!  ',
    ]) {
      expect([common, await passwordProblem(common)]).toEqual([common, 'common']);
    }
    // A common word beside a long random number is not a common password.
    expect(await isCommonPassword('dragon 8274 1937 5502 66')).toBe(false);
    expect(await isCommonPassword('correct horse battery staple')).toBe(false);
  });

  it('refuses a repeated piece or a run', async () => {
    for (const predictable of [
      'aaaaaaaaaaaaaaaa',
      '               ',
      'abababababababab',
      'hello there hello there',
      'abcdefghijklmnopq',
      'zyxwvutsrqponmlk',
      '123456789012345',
      '987654321098765',
    ]) {
      expect([predictable, isPredictablePattern(predictable)]).toEqual([predictable, true]);
      expect(await passwordProblem(predictable)).not.toBeNull();
    }
    expect(isPredictablePattern('correct horse battery staple')).toBe(false);
  });

  it('refuses the email’s name part, the organisation’s name and “Setpoint”, however written', async () => {
    const context = {
      email: 'morgan.reyes+work@example.com',
      orgName: 'Reyes Property Management',
    };
    expect(contextProblem('I am Morgan Reyes, hello there', context)).toBe('email');
    expect(contextProblem('my work is morganreyes and more', context)).toBe('email');
    expect(contextProblem('reyes-property-management 2026', context)).toBe('organization');
    expect(contextProblem('my SETPOINT thermostat console', context)).toBe('service');
    expect(contextProblem('correct horse battery staple', context)).toBeNull();
    // A two-letter name part is in too many good passwords to count.
    expect(contextProblem('a bowl of rice and beans', { email: 'bo@example.com' })).toBeNull();
  });
});

describe('every form that chooses a password applies it', () => {
  const errorsOf = async (result: Promise<{ success: boolean; error?: unknown }>) => {
    const parsed = await result;
    return parsed.success ? {} : fieldErrorsOf(parsed.error as { issues: [] });
  };
  const setup = (password: string, confirm = password) =>
    errorsOf(
      setupSchema.safeParseAsync({
        orgName: 'Reyes Property Management',
        name: 'Morgan Reyes',
        email: 'Morgan@Example.com',
        password,
        confirm,
      }),
    );

  it('first-run setup', async () => {
    expect(await setup('correct horse battery staple')).toEqual({});
    expect(await setup('password1234')).toEqual({ password: [PASSWORD_PROBLEMS.short] });
    expect(await setup('Password12345678')).toEqual({ password: [PASSWORD_PROBLEMS.common] });
    expect(await setup('morgan is the best of all')).toEqual({
      password: [PASSWORD_PROBLEMS.email],
    });
    expect(await setup('Reyes Property Management!')).toEqual({
      password: [PASSWORD_PROBLEMS.organization],
    });
    expect(await setup('correct horse battery staple', 'other')).toEqual({
      confirm: ['The passwords do not match.'],
    });
    // A field's own error and the password's come back together, as the page shows them.
    const both = await errorsOf(
      setupSchema.safeParseAsync({
        orgName: 'Reyes',
        name: 'Morgan',
        email: 'not-an-email',
        password: 'short',
        confirm: 'different',
      }),
    );
    expect(both).toEqual({
      email: ['Enter a valid email address.'],
      password: [PASSWORD_PROBLEMS.short],
      confirm: ['The passwords do not match.'],
    });
  });

  it('accepting an invitation, against the invitation’s email and organisation', async () => {
    const schema = acceptInvitationSchema({ email: 'pat@northwind.example', orgName: 'Northwind' });
    const accept = (password: string) =>
      errorsOf(schema.safeParseAsync({ name: 'Pat', password, confirm: password }));
    expect(await accept('a different staple, horse and battery')).toEqual({});
    expect(await accept('qwertyuiop12345')).toEqual({ password: [PASSWORD_PROBLEMS.common] });
    expect(await accept('we are Northwind, and glad')).toEqual({
      password: [PASSWORD_PROBLEMS.organization],
    });
  });

  it('a reset link, against the account’s email and organisation', async () => {
    const schema = resetPasswordSchema({ email: 'morgan@example.com', orgName: 'Reyes' });
    const reset = (password: string) =>
      errorsOf(schema.safeParseAsync({ password, confirm: password }));
    expect(await reset('a new staple for the horse')).toEqual({});
    expect(await reset('morgan morgan morgan')).toEqual({ password: [PASSWORD_PROBLEMS.pattern] });
    expect(await reset('Morgan likes long walks')).toEqual({ password: [PASSWORD_PROBLEMS.email] });
    expect(await reset('x'.repeat(129))).toEqual({ password: [PASSWORD_PROBLEMS.long] });
  });
});
