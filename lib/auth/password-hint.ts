/**
 * The password policy's numbers and the hint under every new-password field: small and free of
 * imports, for the client components that show them (the policy itself, with its half-megabyte
 * list of common passwords, stays on the server: lib/auth/password-policy.ts).
 */
export const PASSWORD_MIN_LENGTH = 15;
export const PASSWORD_MAX_LENGTH = 128;

export const PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters. A few unrelated words make a strong password that is easy to remember; a very common password, or one with your email or organisation’s name in it, is refused.`;
