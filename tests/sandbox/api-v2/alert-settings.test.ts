import { describe, expect, it } from 'vitest';
import { expectFail, THERMOSTATS, withApiSession } from '../helpers';

const api = withApiSession();
const alertSettings = () => `${THERMOSTATS}/${api.thermostatId}/alertSettings`;

describe('alert settings', () => {
  it('reads and writes the record with the thermostat id, as production does', async () => {
    const reply = await api.get(alertSettings());
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body.data).sort()).toEqual([
      'highHumidityAlert',
      'highTemperatureAlert',
      'hvacMaintenanceReminder',
      'id',
      'lowHumidityAlert',
      'lowTemperatureAlert',
    ]);
    expect(reply.body.data.id).toBe(api.thermostatId);
    const updated = await api.patch(alertSettings(), { lowHumidityAlert: { enabled: true } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.id).toBe(api.thermostatId);
    expect(updated.body.data.lowHumidityAlert.enabled).toBe(true);
    expectFail(await api.patch(alertSettings(), { id: api.thermostatId }), 'id');
  });

  it('never returns acMaintenanceReminder and adds nextReminderDate', async () => {
    const reply = await api.get(alertSettings());
    expect(reply.body.data).not.toHaveProperty('acMaintenanceReminder');
    expect(reply.body.data.hvacMaintenanceReminder).toHaveProperty('nextReminderDate');
    const updated = await api.patch(alertSettings(), {
      hvacMaintenanceReminder: {
        enabled: true,
        lastMaintenanceDate: '2024-01-31',
        maintenanceInterval: 1,
        maintenanceIntervalUnits: 'month',
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.hvacMaintenanceReminder.nextReminderDate).toBe('2024-02-29');
    expect(updated.body.data).not.toHaveProperty('acMaintenanceReminder');
  });

  it('rejects acMaintenanceReminder and invalid alert values, naming the field', async () => {
    const update = (body: unknown) => api.patch(alertSettings(), body);
    expectFail(await update({ acMaintenanceReminder: { enabled: true } }), 'acMaintenanceReminder');
    expectFail(
      await update({ hvacMaintenanceReminder: { lastMaintenanceDate: '2024-02-30' } }),
      'hvacMaintenanceReminder.lastMaintenanceDate',
    );
    expectFail(
      await update({ hvacMaintenanceReminder: { maintenanceIntervalUnits: 'week' } }),
      'hvacMaintenanceReminder.maintenanceIntervalUnits',
    );
    expectFail(
      await update({ hvacMaintenanceReminder: { nextReminderDate: '2030-01-01' } }),
      'hvacMaintenanceReminder.nextReminderDate',
    );
    expectFail(await update({ lowTemperatureAlert: { value: -11 } }), 'lowTemperatureAlert.value');
    expectFail(
      await update({ highTemperatureAlert: { value: 121 } }),
      'highTemperatureAlert.value',
    );
    expectFail(await update({ lowHumidityAlert: { value: 0 } }), 'lowHumidityAlert.value');
    expectFail(
      await update({ lowHumidityAlert: { value: 40 }, highHumidityAlert: { value: 42 } }),
      'highHumidityAlert.value',
    );
    expectFail(
      await update({ lowTemperatureAlert: { value: 60 }, highTemperatureAlert: { value: 61 } }),
      'highTemperatureAlert.value',
    );
  });
});
