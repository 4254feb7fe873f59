import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ActivityAction } from '@/lib/activity/actions';
import { listActivityAsSeen } from '@/lib/activity-log/view';
import { changeLines } from '@/lib/activity-log/words';
import { startBulkRun } from '@/lib/bulk/runs';
import { workBulkRun } from '../support/runs';
import { type BulkRun, findBulkRun } from '@/lib/runs/store';
import type { DatabaseHandle } from '@/lib/db/client';
import { listActivity, recordActivity } from '@/lib/activity/store';
import type { Member } from '@/lib/auth/store';
import { addThermostat, ensureBuilding } from '@/lib/portfolio/store';
import { stopBoss } from '@/lib/queue/queue';
import { connectionEndChanges, connectionEndedInWords } from '@/lib/service/connection/ended';
import { describeSettingsChanges } from '@/lib/settings/configuration';
import {
  applyPlannedRun,
  planOneOffRun,
  planUndoOfRun,
  runsOfferingUndo,
} from '@/lib/templates/runs';
import type { Template } from '@/lib/templates/schema';
import type { TemplateService } from '@/lib/templates/service';
import { workPlannedRun } from '../support/runs';
import { failureWords } from '@/lib/service/errors';
import {
  defaultAlertSettings,
  defaultComfortSettings,
  defaultSettings,
  residentialSchedule,
} from '@/sandbox/src/store';
import { applyAllBut } from '../support/bulk-service';
import { databaseTargets, useDatabase } from '../support/database';
import { createFirstOwner, inviteAndAccept } from '../support/members';
import { applyOperations, type FullState } from '../support/template-service';

// The export route asks the session who is signed in; here, whoever the test says.
const session = vi.hoisted(() => ({ member: null as Member | null }));
vi.mock('@/lib/auth/session', () => ({ getCurrentMember: async () => session.member }));
const { GET: exportActivity } = await import('@/app/(app)/activity/export/route');

/**
 * The activity log as each member reads it: a bulk run over 3 buildings is one entry written
 * with the whole run's counts; the manager of one building reads it, on the page and in the CSV
 * export, as their share only. Owners, viewers and whoever started the run read the whole.
 */

const A = '00000000000000000000a0c1';
const B = '00000000000000000000b0c1';
const C = '00000000000000000000c0c1';
const id = (n: number) => String(500000000000 + n);
const BUILDING_OF = (n: number) => (n < 10 ? A : n < 20 ? B : C);
const IDS = Array.from({ length: 30 }, (_, n) => id(n));

/** The service in memory for template runs: each thermostat's state, changed as asked. */
function templateService(): TemplateService {
  const states = new Map<string, FullState>();
  const state = (thermostatId: string): FullState => {
    const known = states.get(thermostatId);
    if (known) return known;
    const fresh: FullState = {
      heatCoolMinDelta: 5,
      comfortSettings: defaultComfortSettings().map((setting) => ({ ...setting })),
      week: residentialSchedule(),
      configuration: defaultSettings(),
      alerts: { ...defaultAlertSettings() },
      accessControl: null,
    };
    states.set(thermostatId, fresh);
    return fresh;
  };
  return {
    async read({ thermostatId, accessControl }) {
      const { accessControl: locks, ...rest } = structuredClone(state(thermostatId));
      return { ...rest, ...(accessControl ? { accessControl: locks } : {}) };
    },
    async configuration({ thermostatIds, changes }) {
      for (const thermostatId of thermostatIds) {
        states.set(
          thermostatId,
          applyOperations(state(thermostatId), [
            { kind: 'configuration', stage: 'before', changes },
          ]),
        );
      }
      const results = thermostatIds.map((thermostatId) => ({
        thermostatId,
        status: 'success' as const,
        data: {},
      }));
      return { succeeded: results.length, failed: 0, results };
    },
    async perform({ thermostatId, operation }) {
      if (operation.kind === 'schedule' || operation.kind === 'createComfortSetting') {
        throw new Error('not needed here');
      }
      states.set(thermostatId, applyOperations(state(thermostatId), [operation]));
      return {};
    },
    async findComfortSetting() {
      return null;
    },
  };
}

const ALERTS: Omit<Template, 'name'> = {
  alerts: { lowTemperatureAlert: { enabled: true, value: 50 } },
};

describe.each(databaseTargets)(
  'the activity log as each member reads it on $name',
  ({ target }) => {
    let handle: DatabaseHandle;
    let owner: Member;
    let managerA: Member;
    let viewer: Member;
    let runId: string;

    beforeAll(async () => {
      // Template runs read the settings (their call budget); the redirect URI's port is a test's.
      process.env.AUTH_SECRET ??= randomBytes(32).toString('base64url');
      process.env.TOKEN_KEYS ??= `1:${randomBytes(32).toString('base64url')}`;
      process.env.SERVICE_ALLOW_REDIRECT_PORT ??= 'true';
      handle = await useDatabase(await target());
      owner = await createFirstOwner('owner@activity.example', 'Activity Property');
      for (const [buildingId, name] of [
        [A, 'Alder House'],
        [B, 'Birch Court'],
        [C, 'Cedar Lofts'],
      ] as const) {
        await ensureBuilding({ orgId: owner.orgId, buildingId, name, timeZone: 'America/Denver' });
      }
      for (const [n, thermostatId] of IDS.entries()) {
        await addThermostat({
          orgId: owner.orgId,
          thermostatId,
          buildingId: BUILDING_OF(n),
          unitLabel: `Unit ${n + 1}`,
        });
      }
      managerA = await inviteAndAccept(owner.orgId, 'alder@activity.example', 'building_manager', [
        A,
      ]);
      viewer = await inviteAndAccept(owner.orgId, 'viewer@activity.example', 'viewer');

      // The owner's run over all 30; two thermostats outside Alder House fail.
      const started = await startBulkRun({
        member: owner,
        thermostatIds: IDS,
        values: { fanMinimumOnTime: '40' },
      });
      if (!started.ok) throw new Error(started.message);
      runId = started.run.id;
      const failing = [id(12), id(25)];
      expect(await workBulkRun({ runId, apply: applyAllBut(...failing) })).toBe('finished');
    });

    afterAll(async () => {
      await stopBoss();
      await handle.close();
    });

    const WHOLE =
      'Bulk configuration of 30 thermostats: fan minimum on-time 40 min/h. Done with 2 failures: 28 done, 2 failed, 0 not sent (of 30).';
    const SHARE =
      'Bulk configuration of 10 thermostats in your buildings: fan minimum on-time 40 min/h. Done: 10 done, 0 failed, 0 not sent (of 10).';

    const entryOf = async (scope: Parameters<typeof listActivityAsSeen>[0]['scope']) => {
      const { entries, runs } = await listActivityAsSeen({ scope, unit: 'F' });
      const entry = entries.find((e) => e.runId === runId);
      if (!entry) throw new Error('the run’s entry is not listed');
      return { entry, run: runs.get(runId) };
    };

    it('stores the whole run once, as it finished', async () => {
      const stored = (await listActivity({ scope: owner })).filter((e) => e.runId === runId);
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ summary: WHOLE, outcome: 'failure', error: '2 failed' });
    });

    it('shows the manager of one building their share only: words, details, outcome', async () => {
      const { entry, run } = await entryOf(managerA);
      expect(run).toMatchObject({ partView: true, total: 10 });
      expect(entry.summary).toBe(SHARE);
      expect(entry).toMatchObject({ outcome: 'success', error: null, buildingId: A });
      expect(entry.changes).toMatchObject({
        runId,
        total: 10,
        applied: 10,
        failed: 0,
        notSent: 0,
        cancelled: 0,
        buildings: 1,
      });
      // Nothing of the other buildings' 20 thermostats, their 2 failures or the run's 30.
      const words = JSON.stringify([entry.summary, entry.changes, entry.error]);
      expect(words).not.toMatch(/\b(30|28|20|2 failed)\b/);
    });

    it('shows owners, viewers and whoever started the run the whole', async () => {
      for (const member of [owner, viewer]) {
        const { entry, run } = await entryOf(member);
        expect(run).toMatchObject({ partView: false, total: 30 });
        expect(entry).toMatchObject({ summary: WHOLE, error: '2 failed', buildingId: null });
        expect(entry.changes).toMatchObject({ total: 30, applied: 28, failed: 2, buildings: 3 });
      }
      // Its starter with a narrower scope (say, moved to managing Alder House only) still does.
      const { entry } = await entryOf({ ...owner, buildingIds: [A] });
      expect(entry.summary).toBe(WHOLE);
    });

    it('exports the manager’s share, not the whole run, as CSV', async () => {
      const csvOf = async (member: Member) => {
        session.member = member;
        const response = await exportActivity(
          new NextRequest('http://localhost/activity/export?action=configuration.bulk_update'),
        );
        expect(response.status).toBe(200);
        const rows: string[][] = parse((await response.text()).replace(/^\uFEFF/, ''));
        const [header, ...body] = rows;
        const column = (name: string) => header?.indexOf(name) ?? -1;
        const row = body.find((r) => r[column('recorded (JSON)')]?.includes(runId));
        if (!row) throw new Error('the run’s entry is not exported');
        return {
          summary: row[column('summary')],
          error: row[column('error')],
          details: JSON.parse(row[column('recorded (JSON)')] ?? '{}') as Record<string, unknown>,
        };
      };
      const mine = await csvOf(managerA);
      expect(mine).toMatchObject({ summary: SHARE, error: '' });
      expect(mine.details).toMatchObject({ total: 10, applied: 10, failed: 0, buildings: 1 });
      const whole = await csvOf(owner);
      expect(whole).toMatchObject({ summary: WHOLE, error: '2 failed' });
      expect(whole.details).toMatchObject({ total: 30, applied: 28, failed: 2, buildings: 3 });
    });

    it('reads a configuration change in the reader’s unit, one thermostat’s and a bulk run’s', async () => {
      const changes = { heatRange: { min: 50, max: 77 } };
      const words = describeSettingsChanges(changes).join(', ');
      await recordActivity({
        orgId: owner.orgId,
        userId: owner.userId,
        actorName: owner.name,
        action: 'configuration.update',
        thermostatId: id(1),
        buildingId: A,
        summary: `Changed configuration of Unit 2: ${words}`,
        changes: { heatRange: { from: { min: 45, max: 79 }, to: changes.heatRange } },
        outcome: 'success',
        error: null,
      });
      const bulk = await startBulkRun({
        member: owner,
        thermostatIds: IDS.slice(0, 3),
        values: { heatMin: '50', heatMax: '77' },
      });
      if (!bulk.ok) throw new Error(bulk.message);
      expect(await workBulkRun({ runId: bulk.run.id, apply: applyAllBut() })).toBe('finished');
      const summaries = async (unit: 'F' | 'C', action: ActivityAction) =>
        (await listActivityAsSeen({ scope: owner, unit, filter: { action } })).entries.map(
          (entry) => entry.summary,
        );

      expect(await summaries('F', 'configuration.update')).toEqual([
        'Changed configuration of Unit 2: heat range 50 °F to 77 °F',
      ]);
      expect(await summaries('C', 'configuration.update')).toEqual([
        'Changed configuration of Unit 2: heat range 10 °C to 25 °C',
      ]);
      expect(await summaries('F', 'configuration.bulk_update')).toContain(
        'Bulk configuration of 3 thermostats: heat range 50 °F to 77 °F. Done: 3 done, 0 failed, 0 not sent (of 3).',
      );
      expect(await summaries('C', 'configuration.bulk_update')).toContain(
        'Bulk configuration of 3 thermostats: heat range 10 °C to 25 °C. Done: 3 done, 0 failed, 0 not sent (of 3).',
      );
      // The details too: recorded in °F, read in °C.
      expect(
        changeLines({ heatRange: { from: { min: 45, max: 79 }, to: changes.heatRange } }, 'C'),
      ).toEqual([['Heat range', '7.2 °C to 26.1 °C → 10 °C to 25 °C']]);
    });

    it('names a move’s buildings, and none outside the reader’s scope', async () => {
      const moved = (from: string, to: string) => ({
        orgId: owner.orgId,
        userId: owner.userId,
        actorName: owner.name,
        action: 'thermostat.move' as const,
        thermostatId: id(2),
        buildingId: to,
        summary: 'Moved Unit 3',
        changes: { buildingId: { from, to } },
        outcome: 'success' as const,
        error: null,
      });
      const REMOVED = '00000000000000000000dead';
      await recordActivity(moved(C, A));
      await recordActivity(moved(REMOVED, B));
      const lines = async (scope: Member) =>
        (
          await listActivityAsSeen({ scope, unit: 'F', filter: { action: 'thermostat.move' } })
        ).entries.map((entry) => changeLines(entry.changes));

      expect(await lines(owner)).toEqual([
        [['Building', 'a building since removed → Birch Court']],
        [['Building', 'Cedar Lofts → Alder House']],
      ]);
      // The manager of Alder House reads the move into it, not the name of where it came from.
      expect(await lines(managerA)).toEqual([[['Building', 'another building → Alder House']]]);
      expect(JSON.stringify(await lines(owner))).not.toMatch(/[0-9a-f]{24}/);
    });

    it('says why the connection ended in words, never the service’s error code', async () => {
      const ended = {
        orgId: owner.orgId,
        userId: null,
        actorName: 'Setpoint',
        action: 'connection.end' as const,
        summary: 'The thermostat service ended the connection; an owner or admin must reconnect',
        outcome: 'failure' as const,
        error: 'reconnect',
      };
      // One written before the reason was kept (the refresh's error text), one as written now.
      await recordActivity({ ...ended, changes: { reason: 'Refresh refused (invalid_grant)' } });
      await recordActivity({ ...ended, changes: connectionEndChanges('tokens_unreadable') });
      const words = [
        connectionEndedInWords('tokens_unreadable'),
        connectionEndedInWords('refresh_refused'),
      ];
      const { entries } = await listActivityAsSeen({
        scope: owner,
        unit: 'F',
        filter: { action: 'connection.end' },
      });
      expect(entries.map((entry) => entry.changes)).toEqual(words.map((reason) => ({ reason })));

      session.member = owner;
      const response = await exportActivity(
        new NextRequest('http://localhost/activity/export?action=connection.end'),
      );
      expect(response.status).toBe(200);
      const csv = await response.text();
      const [header, ...body] = parse(csv.replace(/^\uFEFF/, '')) as string[][];
      const recorded = header?.indexOf('recorded (JSON)') ?? -1;
      const details = body.map((row) => JSON.parse(row[recorded] ?? '{}'));
      expect(details).toEqual(words.map((reason) => ({ reason })));
      expect(csv).not.toMatch(/invalid_grant|refused \(|_unreadable|endedReason/);
      // The error column too: the words the page says, not the recorded kind.
      const errors = body.map((row) => row[header?.indexOf('error') ?? -1]);
      expect(errors).toEqual([failureWords('reconnect'), failureWords('reconnect')]);
    });

    it('offers Undo on a finished template, one-off or undo run’s entry to whoever may change thermostats, as the run’s page does', async () => {
      const service = templateService();
      /** A planned run, read by its job, then applied and worked to its end. */
      const applied = async (
        planned: { ok: true; run: BulkRun } | { ok: false; message: string },
      ) => {
        if (!planned.ok) throw new Error(planned.message);
        expect(await workPlannedRun({ runId: planned.run.id, service, owner: 'test' })).toBe(
          'finished',
        );
        const confirmed = await applyPlannedRun({ member: owner, runId: planned.run.id });
        if (!confirmed.ok) throw new Error(confirmed.message);
        expect(await workPlannedRun({ runId: planned.run.id, service, owner: 'test' })).toBe(
          'finished',
        );
        return (await findBulkRun({ scope: owner, runId: planned.run.id })) as BulkRun;
      };
      // The owner's one-off change on two thermostats of Alder House and two of Birch Court.
      const targets = [id(0), id(1), id(10), id(11)];
      const oneOff = await applied(
        await planOneOffRun({ member: owner, template: ALERTS, thermostatIds: targets }),
      );
      expect(oneOff).toMatchObject({ state: 'done', applied: 4 });
      // Planned again: it changes nothing, so there is nothing to undo.
      const again = await applied(
        await planOneOffRun({ member: owner, template: ALERTS, thermostatIds: targets }),
      );
      expect(again).toMatchObject({ state: 'done', applied: 0 });
      // A plan not applied yet offers nothing either.
      const waiting = await planOneOffRun({
        member: owner,
        template: { alerts: { lowTemperatureAlert: { value: 48 } } },
        thermostatIds: targets,
      });
      if (!waiting.ok) throw new Error(waiting.message);

      const offered = async (member: Member) => {
        const { entries, runs } = await listActivityAsSeen({ scope: member, unit: 'F' });
        const offering = await runsOfferingUndo(member, runs.values());
        return entries.flatMap((entry) =>
          entry.runId && offering.has(entry.runId) ? [entry.runId] : [],
        );
      };
      // The owner: the one-off run that changed something, not the configuration run (it keeps
      // nothing to undo), nor the run that changed nothing, nor the plan.
      expect(await offered(owner)).toEqual([oneOff.id]);
      // The manager of Alder House: someone else's run, undone in their buildings, so offered.
      expect(await offered(managerA)).toEqual([oneOff.id]);
      // A viewer changes nothing: never offered.
      expect(await offered(viewer)).toEqual([]);

      // The undo, once applied, is a run of its own whose entry offers Undo in turn.
      const undo = await applied(await planUndoOfRun({ member: owner, runId: oneOff.id }));
      expect(undo).toMatchObject({ kind: 'undo', state: 'done', applied: 4 });
      expect(await offered(owner)).toEqual([undo.id, oneOff.id]);
      const { entries } = await listActivityAsSeen({
        scope: owner,
        unit: 'F',
        filter: { action: 'change.undo' },
      });
      expect(entries.map((entry) => entry.runId)).toEqual([undo.id]);
    });

    it('reads an alert-settings entry and a template’s schedule in words, on the page and in the export', async () => {
      await recordActivity({
        orgId: owner.orgId,
        userId: owner.userId,
        actorName: owner.name,
        action: 'alert_settings.update',
        thermostatId: id(3),
        buildingId: A,
        summary: 'Changed alert settings of Unit 4 (hvacMaintenanceReminder, lowTemperatureAlert)',
        changes: {
          hvacMaintenanceReminder: { lastMaintenanceDate: '2026-05-01' },
          lowTemperatureAlert: { enabled: true },
        },
        outcome: 'success',
        error: null,
      });
      const weekday = Array.from({ length: 48 }, (_, block) =>
        block < 12 || block >= 44 ? 'Sleep' : 'Home',
      );
      await recordActivity({
        orgId: owner.orgId,
        userId: owner.userId,
        actorName: owner.name,
        action: 'template.create',
        summary: 'Created the template “Nights”',
        changes: {
          before: null,
          after: {
            name: 'Nights',
            schedule: [
              ...new Array(5).fill(weekday),
              ...new Array(2).fill(new Array(48).fill('Home')),
            ],
          },
        },
        outcome: 'success',
        error: null,
      });
      const alert = (
        await listActivityAsSeen({
          scope: owner,
          unit: 'F',
          filter: { action: 'alert_settings.update' },
        })
      ).entries[0];
      expect(alert?.summary).toBe(
        'Changed alert settings of Unit 4 (maintenance reminder, low temperature alert)',
      );
      // Stored as JSON, whose keys the database orders its own way.
      expect(changeLines(alert?.changes ?? {}).sort()).toEqual([
        ['Low temperature alert', 'enabled on'],
        ['Maintenance reminder', 'last done 2026-05-01'],
      ]);

      session.member = owner;
      const csvOf = async (action: ActivityAction) => {
        const response = await exportActivity(
          new NextRequest(`http://localhost/activity/export?action=${action}`),
        );
        const [header, ...body] = parse(
          (await response.text()).replace(/^\uFEFF/, ''),
        ) as string[][];
        const column = (name: string) => header?.indexOf(name) ?? -1;
        return body.map((row) => ({
          summary: row[column('summary')],
          details: row[column('details')],
        }));
      };
      const [exported] = await csvOf('alert_settings.update');
      expect(exported?.summary).toBe(
        'Changed alert settings of Unit 4 (maintenance reminder, low temperature alert)',
      );
      expect(exported?.details?.split('; ').sort()).toEqual([
        'Low temperature alert: enabled on',
        'Maintenance reminder: last done 2026-05-01',
      ]);
      const [template] = await csvOf('template.create');
      expect(template?.details).toBe(
        'Weekly schedule: Mon–Fri 06:00–22:00 Home, 22:00–06:00 Sleep; Sat–Sun all day Home',
      );
    });

    it('exports why a change failed in the words the page uses, never the recorded code', async () => {
      const failed = {
        orgId: owner.orgId,
        userId: owner.userId,
        actorName: owner.name,
        action: 'resident_mode.update' as const,
        thermostatId: id(1),
        buildingId: A,
        summary: 'Turned resident mode on for Unit 2',
        changes: { isResidentMode: true },
        outcome: 'failure' as const,
      };
      await recordActivity({ ...failed, error: 'rate_limited' });
      await recordActivity({ ...failed, error: 'internal_error' });

      session.member = owner;
      const response = await exportActivity(
        new NextRequest('http://localhost/activity/export?action=resident_mode.update'),
      );
      expect(response.status).toBe(200);
      const csv = await response.text();
      const [header, ...body] = parse(csv.replace(/^\uFEFF/, '')) as string[][];
      const errors = body.map((row) => row[header?.indexOf('error') ?? -1]);
      expect(errors.sort()).toEqual(['something went wrong', 'the service was busy']);
      expect(errors).toEqual(expect.arrayContaining([failureWords('rate_limited')]));
      expect(csv).not.toMatch(/rate_limited|internal_error/);
      // The details stay the recorded change, nothing added.
      const recorded = header?.indexOf('recorded (JSON)') ?? -1;
      const details = body.map((row) => JSON.parse(row[recorded] ?? '{}'));
      expect(details).toEqual([{ isResidentMode: true }, { isResidentMode: true }]);
      // And in words, as the page reads them.
      expect(body.map((row) => row[header?.indexOf('details') ?? -1])).toEqual([
        'Resident mode: on',
        'Resident mode: on',
      ]);
    });
  },
);
