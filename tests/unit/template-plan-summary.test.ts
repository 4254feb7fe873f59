import { describe, expect, it } from 'vitest';
import { describeTemplate } from '@/lib/templates/describe';
import type { SectionDiff, ThermostatPlan } from '@/lib/templates/plan';
import type { Template } from '@/lib/templates/schema';
import { sectionCounts, summarySections } from '@/lib/templates/summary';
import { sectionCountWords } from '@/lib/templates/words';

/**
 * A plan opens with one line per section of what it changes, counted over the thermostats that
 * can take it ("Weekly schedule: changes on 3 of 3", "Comfort settings: already match on 5 of 5"),
 * the detail of each thermostat folded below; a template reads one line per section too.
 */

const diff = (section: SectionDiff['section']): SectionDiff => ({
  section,
  title: section,
  summary: '',
  lines: [{ field: 'x', before: 'a', after: 'b' }],
});
const plan = (sections: SectionDiff['section'][], problems: string[] = []) => ({
  plan: {
    operations: [],
    diff: sections.map(diff),
    unchanged: sections.length === 0 && problems.length === 0,
    problems,
    scheduleProvenFewest: true,
  } satisfies ThermostatPlan as unknown as Record<string, unknown>,
});

const TEMPLATE: Template = {
  name: 'Like 101',
  comfortSettings: [
    { name: 'Home', desiredHeat: 68, desiredCool: 76, fanHeat: 'auto', fanCool: 'auto' },
    { name: 'Away', desiredHeat: 60, desiredCool: 85, fanHeat: 'auto', fanCool: 'auto' },
  ],
  configuration: { fanMinimumOnTime: 20, holdAction: 'nextTransition' },
};

describe('a plan, one line per section', () => {
  const items = [
    plan(['schedule', 'configuration']),
    plan(['schedule']),
    plan(['schedule', 'configuration']),
    plan([]),
    plan([]),
    // Cannot take it: not counted in any section (the summary counts it as "cannot change").
    plan(['configuration'], ['It has 16 comfort settings.']),
    { plan: null },
  ];

  it('counts, per section, the thermostats it changes of those that can take the plan', () => {
    expect(sectionCounts(items)).toEqual([
      { section: 'schedule', changing: 3, of: 5 },
      { section: 'configuration', changing: 2, of: 5 },
    ]);
  });

  it('names the template’s sections that change nowhere: they already match everywhere', () => {
    const counts = sectionCounts(items, { ...TEMPLATE, schedule: [] });
    expect(counts.map(sectionCountWords)).toEqual([
      'Comfort settings: already match on 5 of 5',
      'Weekly schedule: changes on 3 of 5, already match on 2',
      'Configuration: changes on 2 of 5, already match on 3',
    ]);
  });

  it('adds them to a stored summary, which knows only the sections that change', () => {
    const summary = {
      thermostats: 7,
      changing: 3,
      unchanged: 2,
      blocked: 2,
      calls: 5,
      callsByKind: {
        configuration: 1,
        createComfortSetting: 0,
        updateComfortSetting: 0,
        schedule: 4,
        alerts: 0,
        accessControl: 0,
        residentMode: 0,
      },
      seconds: 1,
      scheduleProvenFewest: true,
      sections: [{ section: 'schedule' as const, changing: 3, of: 3 }],
    };
    expect(summarySections(summary).map(sectionCountWords)).toEqual([
      'Weekly schedule: changes on 3 of 3',
    ]);
    expect(summarySections(summary, TEMPLATE).map(sectionCountWords)).toEqual([
      'Comfort settings: already match on 5 of 5',
      'Weekly schedule: changes on 3 of 3',
      'Configuration: already match on 5 of 5',
    ]);
    // A summary stored before sections were counted: the template's sections, none changing.
    const { sections: _older, ...older } = summary;
    expect(summarySections(older, { alerts: {} }).map(sectionCountWords)).toEqual([
      'Alert settings: already match on 5 of 5',
    ]);
  });

  it('says so when no thermostat can take the change, and counts in thousands', () => {
    expect(sectionCountWords({ section: 'alerts', changing: 0, of: 0 })).toBe(
      'Alert settings: none of the thermostats can take the change',
    );
    expect(sectionCountWords({ section: 'schedule', changing: 1500, of: 1500 })).toBe(
      'Weekly schedule: changes on 1,500 of 1,500',
    );
  });
});

describe('a template, one line per section', () => {
  it('says each section in a line, its settings listed apart', () => {
    const sections = describeTemplate(TEMPLATE, 'F');
    expect(sections.map((section) => `${section.title}: ${section.brief}`)).toEqual([
      'Comfort settings: 2 comfort settings: Home, Away',
      'Configuration: Sets the hold action and fan minimum on-time',
    ]);
    expect(sections[0]?.lines).toHaveLength(2);
    const one = describeTemplate({ name: 'Fan', configuration: { fanMinimumOnTime: 20 } }, 'F');
    expect(one[0]?.brief).toBe('Fan minimum on-time 20 minutes per hour');
  });
});
