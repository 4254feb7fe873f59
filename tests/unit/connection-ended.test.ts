import { describe, expect, it } from 'vitest';
import { type ConnectionEndedReason, connectionEndedInWords } from '@/lib/service/connection/ended';

describe('why a connection ended, in words', () => {
  const reasons: ConnectionEndedReason[] = ['refresh_refused', 'tokens_unreadable'];

  it('says each reason plainly, with none of the service’s codes', () => {
    expect(connectionEndedInWords('refresh_refused')).toBe(
      'The service no longer accepts this connection: it would not renew Setpoint’s access, because the approval given at the service expired or was withdrawn there.',
    );
    expect(connectionEndedInWords('tokens_unreadable')).toBe(
      'Setpoint can no longer use this connection: the access it saved cannot be read (the key it was stored with was removed from the server).',
    );
    for (const reason of reasons) {
      expect(connectionEndedInWords(reason)).not.toMatch(/_|\(\d{3}\)/);
    }
  });

  it('has general words for a connection that ended before its reason was kept', () => {
    expect(connectionEndedInWords(null)).toBe('The service no longer accepts this connection.');
  });
});
