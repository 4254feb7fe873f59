import { describe, expect, it } from 'vitest';
import { expectFail, THERMOSTATS, withApiSession } from '../helpers';

const api = withApiSession();
const accessControl = (body: unknown) =>
  api.patch(`${THERMOSTATS}/${api.thermostatId}/accessControl`, body);

describe('access control', () => {
  it('sets a passcode that is never returned', async () => {
    const reply = await accessControl({
      enabled: true,
      passcode: '0420',
      settings: { temperature: true, schedule: true },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({
      enabled: true,
      passcode: '****',
      settings: {
        temperature: true,
        systemMode: false,
        schedule: true,
        vacation: false,
        other: false,
      },
    });
    expect(reply.text).not.toContain('0420');
    const off = await accessControl({ enabled: false });
    expect(off.body.data.passcode).toBeNull();
    expect(off.body.data.enabled).toBe(false);
  });

  it('passcode exactly 4 digits and only when enabled is true', async () => {
    for (const passcode of ['123', '12345', 'abcd', '12a4', 123]) {
      expectFail(await accessControl({ enabled: true, passcode }), 'passcode');
    }
    expectFail(await accessControl({ enabled: false, passcode: '1234' }), 'passcode');
    expectFail(await accessControl({ enabled: false, settings: { other: true } }), 'settings');
    expectFail(await accessControl({ passcode: '1234' }), 'enabled');
    expectFail(await accessControl({ enabled: true, settings: { doors: true } }), 'settings.doors');
    expectFail(
      await accessControl({ enabled: true, settings: { other: 'yes' } }),
      'settings.other',
    );
  });
});
