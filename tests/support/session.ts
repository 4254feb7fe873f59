import type { Member } from '@/lib/auth/store';

/**
 * Who a test says is signed in, for the actions that ask the session. A test file mocks the
 * session module with this one's `sessionModule` (the mock's factory imports it, so the test and
 * the actions share one `session`):
 *
 *   vi.mock('@/lib/auth/session', () => import('../support/session').then((m) => m.sessionModule));
 *   const { session } = await import('../support/session');
 */
export const session = { member: null as Member | null };

export const sessionModule = {
  getCurrentMember: async () => session.member,
  requireMember: async () => {
    if (!session.member) throw new Error('not signed in');
    return session.member;
  },
};
