/**
 * What a new password must be, wherever one is chosen (first-run setup, accepting an invitation,
 * a reset link), after NIST SP 800-63B-4 (section 3.1.1.2):
 *
 * - length, not character classes: at least 15 characters, the minimum NIST requires of a
 *   password that is the only factor (Setpoint's are: there is no second factor), and at most
 *   128, so that any passphrase or password manager fits while hashing stays bounded. Length is
 *   counted in characters as a person sees them (code points), spaces and any script allowed;
 * - not a password attackers try first: not in the 49,000 most common passwords of the
 *   zxcvbn-ts project's list (`@zxcvbn-ts/language-common`), compared without case, with its
 *   spaces left out ("password password" is "passwordpassword"), and without the digits and
 *   symbols around a common password that is at least half of it ("Baseball2024!!!");
 * - not one character or short piece repeated, nor a run such as "abcdef..." or "1234...";
 * - nothing of its context: not the email's name part, the organisation's name or "Setpoint"
 *   (compared without case, spaces or punctuation).
 *
 * Pure, apart from loading the common list once, on first use: it is half a megabyte, and only
 * the pages that take a new password need it.
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password-hint';

export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH };

/** What a password is checked against besides itself. */
export type PasswordContext = { email?: string | null; orgName?: string | null };

export const PASSWORD_PROBLEMS = {
  short: `Use at least ${PASSWORD_MIN_LENGTH} characters.`,
  long: `Use at most ${PASSWORD_MAX_LENGTH} characters.`,
  common:
    'This is one of the most common passwords (or one with only numbers or symbols added), the first an attacker tries. Choose another.',
  pattern:
    'A repeated piece or a run such as “abcd” or “1234” is easy to guess. Choose something less predictable.',
  email: 'Leave your email address (and the name before the @) out of your password.',
  organization: 'Leave your organisation’s name out of your password.',
  service: 'Leave the name Setpoint out of your password.',
} as const;

export type PasswordProblem = keyof typeof PASSWORD_PROBLEMS;

let common: Promise<ReadonlySet<string>> | undefined;

/** The common-password list, lower-cased (it is already), loaded on first use. */
function commonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())),
  );
  return common;
}

/**
 * Whether the password is on the common list, compared without case: as typed, without its
 * spaces, and, where a common password makes up at least half of it, without the digits and
 * symbols around it ("Baseball2024!!!" is "baseball"): the first variations a guesser tries. A
 * common word beside a long random number is not refused.
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  const list = await commonPasswords();
  const lower = password.trim().toLowerCase();
  return [lower, lower.replace(/\s+/g, '')].some((form) => {
    if (list.has(form)) return true;
    const core = form.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
    return core !== '' && [...core].length * 2 >= [...form].length && list.has(core);
  });
}

/** Letters and digits only, lower-cased: how context words are compared. */
const folded = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** Context words shorter than this are left out: "al" or "bo" is in too many good passwords. */
const MIN_CONTEXT_LENGTH = 3;

/**
 * One character or a piece repeated ("aaaa…", "abab…", "hello hello": with or without its
 * spaces), or a run ("abcd…", "4321…").
 */
export function isPredictablePattern(password: string): boolean {
  const lower = password.toLowerCase();
  return [lower, lower.replace(/\s+/g, '')].some(
    (form) => isRepeated([...form]) || isRun([...form]),
  );
}

/** A piece at most half as long, repeated to the end (its last repeat may stop short). */
function isRepeated(characters: string[]): boolean {
  for (let unit = 1; unit <= Math.floor(characters.length / 2); unit += 1) {
    if (characters.every((character, index) => character === characters[index % unit])) {
      return true;
    }
  }
  return false;
}

/** Every character one after (or one before) the one before it; digits wrap (9, 0). */
function isRun(characters: string[]): boolean {
  if (characters.length < 3) return false;
  const codes = characters.map((character) => character.codePointAt(0) ?? 0);
  const isDigit = (code: number) => code >= 48 && code <= 57;
  const step = (from: number, to: number) => {
    const up = isDigit(from) && isDigit(to) ? (to - from + 10) % 10 : to - from;
    const down = isDigit(from) && isDigit(to) ? (from - to + 10) % 10 : from - to;
    return up === 1 ? 1 : down === 1 ? -1 : 0;
  };
  const first = step(codes[0] ?? 0, codes[1] ?? 0);
  return (
    first !== 0 && codes.slice(1).every((code, index) => step(codes[index] ?? 0, code) === first)
  );
}

/** Which context word the password holds, if any. */
export function contextProblem(password: string, context: PasswordContext): PasswordProblem | null {
  const text = folded(password);
  const local = (context.email ?? '').split('@')[0] ?? '';
  // "morgan+setpoint@…": the whole name part, and the name before its tag.
  const names = [local, local.split('+')[0] ?? ''].map(folded);
  if (names.some((name) => name.length >= MIN_CONTEXT_LENGTH && text.includes(name))) {
    return 'email';
  }
  const organization = folded(context.orgName ?? '');
  if (organization.length >= MIN_CONTEXT_LENGTH && text.includes(organization)) {
    return 'organization';
  }
  if (text.includes('setpoint')) return 'service';
  return null;
}

/** The first thing wrong with a new password, or null when it may be used. */
export async function passwordProblem(
  password: string,
  context: PasswordContext = {},
): Promise<PasswordProblem | null> {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return 'short';
  if (length > PASSWORD_MAX_LENGTH) return 'long';
  if (await isCommonPassword(password)) return 'common';
  if (isPredictablePattern(password)) return 'pattern';
  return contextProblem(password, context);
}
