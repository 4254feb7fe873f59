import { describe, expect, it } from 'vitest';
import { rowCells } from '@/lib/readings/row-cells';
import type { RowReading, RowStatus } from '@/lib/readings/row-types';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const format = { unit: 'F' as const, timeZone: 'America/New_York', now: NOW };
const row = { thermostatId: '425413527692', unitLabel: 'Unit 101' };
const status: RowStatus = {
  temperature: 71.6,
  humidity: 38,
  hvacMode: 'heat',
  pendingHvacMode: null,
  desiredHeat: 68,
  desiredCool: 76,
  isResidentMode: true,
  connected: true,
  offlineSince: null,
  offlineSeen: false,
  comfortSetting: 'Home',
};
const read = (over: Partial<RowReading> = {}): RowReading => ({
  status,
  readAt: new Date(NOW - 4 * 60_000),
  problem: null,
  ...over,
});

describe('a building row in words', () => {
  it('shows a read thermostat in the member’s unit, with its age', () => {
    expect(rowCells(row, read(), format, { quiet: false })).toEqual({
      thermostatId: '425413527692',
      label: 'Unit 101',
      showId: true,
      state: 'read',
      status: {
        temperature: '71.6 °F',
        humidity: '38 %',
        mode: 'Heat',
        pendingMode: null,
        heat: '68 °F',
        cool: '76 °F',
        resident: 'On',
        online: true,
        connection: 'Online',
      },
      readAt: '2026-11-24T11:56:00.000Z',
      age: '4 min ago',
      problem: null,
    });
    const celsius = rowCells(row, read(), { ...format, unit: 'C' }, { quiet: false });
    expect(celsius.status?.temperature).toBe('22 °C');
    expect(celsius.status?.heat).toBe('20 °C');
  });

  it('says since when an offline thermostat was last seen, in the building’s time zone, named', () => {
    const since = new Date('2026-11-24T11:58:00Z');
    const offline = read({
      status: { ...status, connected: false, offlineSince: since, offlineSeen: true },
    });
    const cells = rowCells(row, offline, format, { quiet: false });
    expect(cells.status?.online).toBe(false);
    expect(cells.status?.connection).toBe('Offline since Nov 24, 2026, 6:58 AM EST');
    // Never seen connected: the time is when Setpoint first read it offline, so "at least".
    const neverSeen = read({
      status: { ...status, connected: false, offlineSince: since, offlineSeen: false },
    });
    expect(rowCells(row, neverSeen, format, { quiet: false }).status?.connection).toBe(
      'Offline since at least Nov 24, 2026, 6:58 AM EST',
    );
    const unseen = read({ status: { ...status, connected: false, offlineSince: null } });
    expect(rowCells(row, unseen, format, { quiet: false }).status?.connection).toBe('Offline');
  });

  it('names a pending mode only while it differs from the mode', () => {
    const pending = read({ status: { ...status, pendingHvacMode: 'cool' } });
    expect(rowCells(row, pending, format, { quiet: false }).status?.pendingMode).toBe('Cool');
    const taken = read({ status: { ...status, pendingHvacMode: 'heat' } });
    expect(rowCells(row, taken, format, { quiet: false }).status?.pendingMode).toBeNull();
  });

  it('shows dashes for what the status does not say', () => {
    const sparse = read({
      status: { ...status, temperature: null, humidity: null, isResidentMode: null },
    });
    const cells = rowCells(row, sparse, format, { quiet: false }).status;
    expect([cells?.temperature, cells?.humidity, cells?.resident]).toEqual(['—', '—', '—']);
  });

  it('uses the id as the label of a thermostat without a unit label', () => {
    const cells = rowCells({ ...row, unitLabel: '' }, read(), format, { quiet: false });
    expect(cells.label).toBe('425413527692');
    expect(cells.showId).toBe(false);
  });

  it('has no status, time or age for a thermostat never read', () => {
    const never = rowCells(row, read({ status: null, readAt: null }), format, { quiet: false });
    expect(never).toMatchObject({ status: null, readAt: null, age: '', state: 'read' });
  });

  it('says why a read failed, unless the page says it once for a service-wide failure', () => {
    const busy = read({ problem: 'rate_limited' });
    expect(rowCells(row, busy, format, { quiet: false })).toMatchObject({
      state: 'failed',
      problem: 'service busy',
    });
    expect(rowCells(row, busy, format, { quiet: true })).toMatchObject({
      state: 'failed',
      problem: null,
    });
    // A failure of this thermostat alone is always said in its row.
    const unknown = read({ problem: 'not_found' });
    expect(rowCells(row, unknown, format, { quiet: true }).problem).toBe('unknown to the service');
  });

  it('marks a row shown with what was known while it is read again', () => {
    expect(rowCells(row, read(), format, { quiet: false, refreshing: true }).state).toBe('stale');
  });
});
