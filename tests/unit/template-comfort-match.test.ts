import { describe, expect, it } from 'vitest';
import { matchComfortSettings, resolveComfortTarget } from '@/lib/templates/comfort-match';
import { type TemplateComfortSetting, templateComfortSettingSchema } from '@/lib/templates/schema';
import type { ComfortSetting } from '@/lib/service/schemas';

const setting = (
  comfortSettingRef: string,
  name: string,
  desiredHeat: number,
  desiredCool: number,
  fans: 'auto' | 'on' = 'auto',
): ComfortSetting => ({
  comfortSettingRef,
  name,
  desiredHeat,
  desiredCool,
  fanHeat: fans,
  fanCool: fans,
});

const wanted = (input: Record<string, unknown>): TemplateComfortSetting =>
  templateComfortSettingSchema.parse(input);

const DEFAULTS = [
  setting('home', 'Home', 70, 76),
  setting('away', 'Away', 62, 82),
  setting('sleep', 'Sleep', 66, 78),
];

describe('matchComfortSettings', () => {
  it('finds each name under whatever ref the thermostat gave it', () => {
    const guestStay = wanted({ name: 'Guest Stay', desiredHeat: 71, desiredCool: 75 });
    // The same custom ref means different settings on different thermostats.
    const first = matchComfortSettings(
      [guestStay],
      [...DEFAULTS, setting('smart1', 'Guest Stay', 71, 75)],
    );
    const second = matchComfortSettings(
      [guestStay],
      [
        ...DEFAULTS,
        setting('smart1', 'Vacant Unit', 58, 85),
        setting('smart2', 'Guest Stay', 68, 75),
      ],
    );
    expect(first.changes).toEqual([{ kind: 'unchanged', name: 'Guest Stay', ref: 'smart1' }]);
    expect(second.changes).toEqual([
      {
        kind: 'update',
        name: 'Guest Stay',
        ref: 'smart2',
        before: setting('smart2', 'Guest Stay', 68, 75),
        changes: { desiredHeat: 71 },
      },
    ]);
    expect(first.targets.get('guest stay')).toEqual({ ref: 'smart1' });
    expect(second.targets.get('guest stay')).toEqual({ ref: 'smart2' });
    // The thermostat's other settings stay nameable by the schedule.
    expect(second.targets.get('vacant unit')).toEqual({ ref: 'smart1' });
  });

  it('creates a setting the thermostat lacks, with the service’s default fans', () => {
    const match = matchComfortSettings(
      [wanted({ name: 'Holiday', desiredHeat: 64, desiredCool: 80, fanCool: 'on' })],
      DEFAULTS,
    );
    expect(match.changes).toEqual([
      {
        kind: 'create',
        name: 'Holiday',
        fields: {
          name: 'Holiday',
          desiredHeat: 64,
          desiredCool: 80,
          fanHeat: 'auto',
          fanCool: 'on',
        },
      },
    ]);
    expect(match.targets.get('holiday')).toEqual({ newName: 'Holiday' });
  });

  it('does not match a renamed setting by its values: the template’s is created beside it', () => {
    // Someone renamed the thermostat's copy; same values, different name: a different setting.
    const renamed = setting('smart1', 'Holiday Mode', 64, 80);
    const match = matchComfortSettings(
      [wanted({ name: 'Holiday', desiredHeat: 64, desiredCool: 80 })],
      [...DEFAULTS, renamed],
    );
    expect(match.changes.map((change) => change.kind)).toEqual(['create']);
    // Left alone: never renamed back, never deleted.
    expect(match.targets.get('holiday mode')).toEqual({ ref: 'smart1' });
  });

  it('does not reuse a default ref whose setting was renamed away from the template’s name', () => {
    const match = matchComfortSettings(
      [wanted({ name: 'Home', desiredHeat: 70, desiredCool: 76 })],
      [setting('home', 'Daytime', 70, 76), DEFAULTS[1] as ComfortSetting],
    );
    expect(match.changes).toEqual([
      {
        kind: 'create',
        name: 'Home',
        fields: {
          name: 'Home',
          desiredHeat: 70,
          desiredCool: 76,
          fanHeat: 'auto',
          fanCool: 'auto',
        },
      },
    ]);
    expect(match.targets.get('home')).toEqual({ newName: 'Home' });
    expect(match.targets.get('daytime')).toEqual({ ref: 'home' });
  });

  it('matches names ignoring case and surrounding spaces, and writes the template’s spelling', () => {
    const match = matchComfortSettings(
      [wanted({ name: '  guest STAY ', desiredHeat: 71, desiredCool: 75 })],
      [...DEFAULTS, setting('smart3', 'Guest Stay', 71, 75)],
    );
    // The schema trims; the spelling is the only difference, and it is one.
    expect(match.changes).toEqual([
      {
        kind: 'update',
        name: 'guest STAY',
        ref: 'smart3',
        before: setting('smart3', 'Guest Stay', 71, 75),
        changes: { name: 'guest STAY' },
      },
    ]);
  });

  it('does not treat inner spaces as the same name (the service does not)', () => {
    const match = matchComfortSettings(
      [wanted({ name: 'Guest  Stay', desiredHeat: 71, desiredCool: 75 })],
      [...DEFAULTS, setting('smart1', 'Guest Stay', 71, 75)],
    );
    expect(match.changes[0]?.kind).toBe('create');
  });

  it('sends only the fields that differ', () => {
    const match = matchComfortSettings(
      [
        wanted({ name: 'Home', desiredHeat: 70, desiredCool: 75, fanHeat: 'on' }),
        wanted({ name: 'Away', desiredHeat: 62, desiredCool: 82 }),
      ],
      DEFAULTS,
    );
    expect(match.changes).toEqual([
      {
        kind: 'update',
        name: 'Home',
        ref: 'home',
        before: DEFAULTS[0],
        changes: { desiredCool: 75, fanHeat: 'on' },
      },
      { kind: 'unchanged', name: 'Away', ref: 'away' },
    ]);
  });
});

describe('resolveComfortTarget', () => {
  it('uses the thermostat’s ref, or the ref the service gave a created setting', () => {
    expect(resolveComfortTarget({ ref: 'smart2' }, new Map())).toBe('smart2');
    const created = new Map([['holiday', 'smart7']]);
    expect(resolveComfortTarget({ newName: 'Holiday' }, created)).toBe('smart7');
    expect(() => resolveComfortTarget({ newName: 'Winter' }, created)).toThrow(/created/);
  });
});
