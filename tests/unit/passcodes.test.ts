import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdPasscode, passcodeFor } from '@/lib/runs/passcodes';

const HOUR = 60 * 60 * 1000;
const heldInMemory = () =>
  (globalThis as { __setpointRunPasscodes?: Map<string, unknown> }).__setpointRunPasscodes;

describe('a passcode held for a run', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is gone from memory after the hour, even if no one asks for it again', () => {
    vi.useFakeTimers();
    holdPasscode('run-a', '4821');
    expect(passcodeFor('run-a')).toBe('4821');
    vi.advanceTimersByTime(HOUR - 1);
    expect(heldInMemory()?.has('run-a')).toBe(true);
    vi.advanceTimersByTime(1);
    // Not merely refused when asked: no longer in the process's memory at all.
    expect(heldInMemory()?.has('run-a')).toBe(false);
    expect(passcodeFor('run-a')).toBeNull();
  });

  it('held again for the same run, lasts an hour from then', () => {
    vi.useFakeTimers();
    holdPasscode('run-b', '1111');
    vi.advanceTimersByTime(HOUR / 2);
    holdPasscode('run-b', '2222');
    vi.advanceTimersByTime(HOUR / 2);
    expect(passcodeFor('run-b')).toBe('2222');
    vi.advanceTimersByTime(HOUR / 2);
    expect(heldInMemory()?.has('run-b')).toBe(false);
  });
});
