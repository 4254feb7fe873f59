import { beforeEach, describe, expect, it } from 'vitest';
import { optionsFromEnv } from '../../sandbox/src/config';
import { expectError, type Reply, type SandboxClient, THERMOSTATS, withSandbox } from './helpers';

/** Per-IP fixed windows on the sandbox clock: `rateLimit` knob, headers, 429s, Retry-After. */

const running = withSandbox();
let client: SandboxClient;
let token: string;
let thermostatId: string;

beforeEach(async () => {
  client = running.client;
  await client.reset();
  token = (await client.login()).access_token;
  thermostatId = (await client.portfolio()).thermostats[0]?.thermostatId as string;
});

const status = () => client.request('GET', `${THERMOSTATS}/${thermostatId}/status`, { token });
const clockNow = async () => Date.parse((await client.control('GET', '/clock')).body.now);
const injected = async () =>
  ((await client.control('GET', '/injected')).body.injected.rate_limited ?? 0) as number;
const remaining = (reply: Reply) => ({
  second: reply.headers.get('x-ratelimit-remaining-second'),
  minute: reply.headers.get('x-ratelimit-remaining-minute'),
  hour: reply.headers.get('x-ratelimit-remaining-hour'),
});

/** Moves the clock just past the start of the next window so a burst stays in one window. */
async function alignClock(windowMs: number) {
  const now = await clockNow();
  await client.setClock(new Date(Math.ceil(now / windowMs) * windowMs + 20).toISOString());
}

/** `count` status reads, every one of which must succeed; returns the last. */
async function burst(count: number): Promise<Reply> {
  let last: Reply | undefined;
  for (let sent = 0; sent < count; sent++) {
    last = await status();
    expect(last.status, `request ${sent + 1} of ${count}`).toBe(200);
  }
  return last as Reply;
}

describe('rate limits', () => {
  it('a per-minute limit answers 429 with Retry-After and x-ratelimit headers', async () => {
    await alignClock(60_000);
    await client.control('PATCH', '/knobs', { rateLimit: { perSecond: 1000, perMinute: 3 } });
    const first = await status();
    expect(first.headers.get('x-ratelimit-limit-minute')).toBe('3');
    expect(first.headers.get('x-ratelimit-remaining-minute')).toBe('2');
    expect(first.headers.get('x-ratelimit-limit-second')).toBe('1000');
    await status();
    await status();
    const over = await status();
    expectError(over, 429, 'rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.headers.get('x-ratelimit-remaining-minute')).toBe('0');
    await client.advance(61);
    expect((await status()).status).toBe(200);
  });

  it('rate-peaks: the most calls one window let through, refusals not counted', async () => {
    await alignClock(3_600_000); // the hour's start: both minutes fall in one hour

    await client.control('PATCH', '/knobs', { rateLimit: { perSecond: 1000, perMinute: 3 } });
    await burst(3);
    expect((await status()).status).toBe(429);
    await client.advance(61);
    await burst(2);
    const { peaks, limits } = (await client.control('GET', '/rate-peaks')).body;
    expect(peaks).toMatchObject({ minute: 3 });
    expect(peaks.hour).toBe(5);
    expect(limits).toMatchObject({ perMinute: 3 });
    await client.reset();
    expect((await client.control('GET', '/rate-peaks')).body.peaks).toEqual({});
  });

  it('production preset: 50 per second', async () => {
    await alignClock(1000);
    await client.control('PATCH', '/knobs', { rateLimit: 'production' });
    const replies = await Promise.all(Array.from({ length: 60 }, () => status()));
    const limited = replies.filter((reply) => reply.status === 429).length;
    expect(limited).toBeGreaterThan(0);
    expect(replies[0]?.headers.get('x-ratelimit-limit-second')).toBe('50');
    expect(replies[0]?.headers.get('x-ratelimit-limit-minute')).toBe('500');
  });

  it('scaled down (5/s, 20/min, 40/h): each window refuses, counts and says when to retry', async () => {
    // All three windows start together at the top of an hour of the sandbox clock; a token
    // from that hour lasts until its end.
    await alignClock(3_600_000);
    const hourStart = Math.floor((await clockNow()) / 3_600_000) * 3_600_000;
    token = (await client.login()).access_token;
    const knobs = await client.control('PATCH', '/knobs', {
      rateLimit: { perSecond: 5, perMinute: 20, perHour: 40 },
    });
    expect(knobs.body.rateLimit).toEqual({
      perSecond: 5,
      perMinute: 20,
      perHour: 40,
      tokenPerWindow: 120,
      tokenWindowSeconds: 7200,
    });

    // A fresh second for the burst (the minute and the hour windows started at hourStart).
    await alignClock(1000);

    // The second: 5 pass, the 6th (and a token request, counted per IP too) are refused.
    const fifth = await burst(5);
    expect(remaining(fifth)).toEqual({ second: '0', minute: '15', hour: '35' });
    const perSecond = await status();
    expect(perSecond.status).toBe(429);
    expect(perSecond.headers.get('retry-after')).toBe('1');
    expect(remaining(perSecond)).toEqual({ second: '0', minute: '15', hour: '35' });
    const tokenRefused = await client.refresh('v2.sbxrt.unknown');
    expect(tokenRefused.status).toBe(429);
    expect(tokenRefused.body.error).toBe('rate_limit_exceeded');
    expect(tokenRefused.headers.get('retry-after')).toBe('1');
    expect(await injected()).toBe(2);

    // The minute: three more seconds of 5 fill it; the next request waits for the next minute.
    for (let second = 1; second <= 3; second++) {
      await client.advance(1);
      await burst(5);
    }
    await client.advance(1);
    const perMinute = await status();
    expect(perMinute.status).toBe(429);
    expect(remaining(perMinute)).toEqual({ second: '5', minute: '0', hour: '20' });
    const untilMinuteEnd = Math.ceil((hourStart + 60_000 - (await clockNow())) / 1000);
    expect(Math.abs(Number(perMinute.headers.get('retry-after')) - untilMinuteEnd)).toBeLessThan(2);
    expect(await injected()).toBe(3);

    // The hour: the next minute's 20 use it up; the 41st waits until the hour ends.
    await client.advance(Number(perMinute.headers.get('retry-after')));
    for (let second = 0; second < 4; second++) {
      await burst(5);
      await client.advance(1);
    }
    const perHour = await status();
    expectError(perHour, 429, 'rate_limited');
    expect(remaining(perHour)).toEqual({ second: '5', minute: '0', hour: '0' });
    const retryAfter = Number(perHour.headers.get('retry-after'));
    const untilHourEnd = Math.ceil((hourStart + 3_600_000 - (await clockNow())) / 1000);
    expect(retryAfter).toBeGreaterThan(3000);
    expect(Math.abs(retryAfter - untilHourEnd)).toBeLessThan(2);
    expect(await injected()).toBe(4);

    // Still refused a minute later (the hour is used up), then the clock rolls the hour window.
    await client.advance(60);
    const stillRefused = await status();
    expect(stillRefused.status).toBe(429);
    expect(Number(stillRefused.headers.get('retry-after'))).toBeGreaterThan(retryAfter - 62);
    await client.advance(Number(stillRefused.headers.get('retry-after')));
    token = (await client.login()).access_token;
    const nextHour = await status();
    expect(nextHour.status).toBe(200);
    // The token request of the new hour counted too.
    expect(remaining(nextHour)).toEqual({ second: '3', minute: '18', hour: '38' });
    expect(await injected()).toBe(5);
  });

  it('the knob and SANDBOX_RATE_LIMIT take null, "production" or fields of the preset', async () => {
    for (const refused of [
      { perHour: -1 },
      { perDay: 5 },
      { perSecond: '5' },
      { perMinute: 2.5 },
      { tokenWindowSeconds: 0 },
      'fast',
      [5],
    ]) {
      const reply = await client.control('PATCH', '/knobs', { rateLimit: refused });
      expect(reply.status, JSON.stringify(refused)).toBe(400);
      expect(reply.body.code).toBe('bad_request');
    }
    expect((await client.control('GET', '/knobs')).body.rateLimit).toBeNull();
    // A request with one bad knob changes none.
    const mixed = await client.control('PATCH', '/knobs', {
      modeChangeDelayMs: 5,
      rateLimit: { perDay: 1 },
    });
    expect(mixed.status).toBe(400);
    expect((await client.control('GET', '/knobs')).body.modeChangeDelayMs).toBe(300);
    await client.control('PATCH', '/knobs', { rateLimit: 'production' });
    expect((await client.control('GET', '/knobs')).body.rateLimit.perHour).toBe(10_000);
    await client.control('PATCH', '/knobs', { rateLimit: null });
    expect((await status()).headers.get('x-ratelimit-limit-hour')).toBeNull();

    const scaled = optionsFromEnv({
      SANDBOX_RATE_LIMIT: '{"perSecond":5,"perMinute":20,"perHour":40}',
    });
    expect(scaled.rateLimit).toMatchObject({ perSecond: 5, perMinute: 20, perHour: 40 });
    expect(optionsFromEnv({ SANDBOX_RATE_LIMIT: 'production' }).rateLimit?.perMinute).toBe(500);
    expect(optionsFromEnv({ SANDBOX_RATE_LIMIT: 'off' }).rateLimit).toBeUndefined();
    expect(() => optionsFromEnv({ SANDBOX_RATE_LIMIT: '{"perHour":"many"}' })).toThrow(/perHour/);
  });
});
