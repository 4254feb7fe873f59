import { describe, expect, it } from 'vitest';
import * as api from '@/lib/service/resources';
import { smallBudgetStack, spendMinuteShare } from '../support/budget';

// Background work that waits for the budget must not hold up what a person waits for. Here the
// minute's background share is spent (by calls that ended 55 s ago, so it frees in about 5 s)
// while a person's share still has room: more background reads than the process sends at once
// wait for that share, and a person's read, asked after them, goes first.
/** More than the process sends at once (lib/service/request.ts). */
const WAITING_READS = 16;

const stack = smallBudgetStack();

describe('the call budget’s priorities in one process', () => {
  it('sends a person’s read while background reads wait for their share', async () => {
    await spendMinuteShare(stack.handle, 'background', 55);
    const { orgId } = stack.owner;
    const thermostats = stack.demo.map((t) => t.thermostatId);

    const order: string[] = [];
    const background = Array.from({ length: WAITING_READS }, (_, i) =>
      api
        .getStatus({
          orgId,
          thermostatId: thermostats[i % thermostats.length] ?? '',
          priority: 'background',
        })
        .then(() => order.push('background')),
    );
    // Every background read has asked for its slot (and been told to wait) before the person's.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await api
      .getStatus({ orgId, thermostatId: thermostats[0] ?? '', priority: 'interactive' })
      .then(() => order.push('person'));
    await Promise.all(background);

    expect(order[0]).toBe('person');
    expect(order.filter((who) => who === 'background')).toHaveLength(WAITING_READS);
  });
});
