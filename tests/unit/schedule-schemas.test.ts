import { describe, expect, it } from 'vitest';
import { scheduleFieldOf, scheduleRangeSchema } from '@/lib/schedule/schemas';

const valid = { days: ['friday', 'monday'], from: '14', to: '17', comfortSettingRef: 'smart3' };

describe('scheduleRangeSchema', () => {
  it('turns the form into the service’s range, days Monday first', () => {
    expect(scheduleRangeSchema.parse(valid)).toEqual({
      days: ['monday', 'friday'],
      firstSlot: 14,
      lastSlot: 17,
      comfortSettingRef: 'smart3',
    });
  });

  it('accepts a single block and the whole day', () => {
    expect(scheduleRangeSchema.safeParse({ ...valid, from: '0', to: '0' }).success).toBe(true);
    expect(scheduleRangeSchema.safeParse({ ...valid, from: '0', to: '47' }).success).toBe(true);
  });

  it.each([
    [{ ...valid, days: [] }, 'days', 'Choose at least one day.'],
    [{ ...valid, days: ['monday', 'monday'] }, 'days', 'Choose each day once.'],
    [{ ...valid, days: ['funday'] }, 'days', 'Choose days of the week.'],
    [{ ...valid, days: undefined }, 'days', 'Choose days.'],
    [{ ...valid, from: '' }, 'from', 'Choose a start time.'],
    [{ ...valid, from: '48' }, 'from', 'Choose a start time.'],
    [{ ...valid, to: '-1' }, 'to', 'Choose an end time.'],
    [{ ...valid, to: '7.5' }, 'to', 'Choose an end time.'],
    [{ ...valid, from: '20', to: '19' }, 'to', 'The end must be after the start.'],
    [{ ...valid, comfortSettingRef: '' }, 'comfortSettingRef', 'Choose a comfort setting.'],
    [{ ...valid, comfortSettingRef: undefined }, 'comfortSettingRef', 'Choose a comfort setting.'],
  ])('refuses %j on %s', (input, field, message) => {
    const result = scheduleRangeSchema.safeParse(input);
    expect(result.success).toBe(false);
    const issue = result.error?.issues.find((i) => i.path[0] === field);
    expect(issue?.message).toBe(message);
  });

  it('maps the service’s field paths onto the form’s fields', () => {
    expect(scheduleFieldOf('days.2')).toBe('days');
    expect(scheduleFieldOf('firstSlot')).toBe('from');
    expect(scheduleFieldOf('lastSlot')).toBe('to');
    expect(scheduleFieldOf('comfortSettingRef')).toBe('comfortSettingRef');
    expect(scheduleFieldOf('body')).toBe('form');
  });
});
