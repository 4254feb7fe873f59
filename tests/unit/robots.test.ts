import { readFileSync } from 'node:fs';
import type { NextConfig } from 'next';
import { describe, expect, it } from 'vitest';

describe('an internal console stays out of search engines', () => {
  it('robots.txt disallows everything to every crawler', () => {
    const robots = readFileSync(new URL('../../public/robots.txt', import.meta.url), 'utf8');
    const rules = robots.split('\n').filter((line) => line && !line.startsWith('#'));
    expect(rules).toEqual(['User-agent: *', 'Disallow: /']);
  });

  it('every response says noindex, nofollow', async () => {
    // next.config.js is plain JavaScript (no types to import it by): loaded by its URL.
    const { default: nextConfig }: { default: NextConfig } = await import(
      new URL('../../next.config.js', import.meta.url).href
    );
    const everyPath = (await nextConfig.headers?.())?.find((rule) => rule.source === '/:path*');
    expect(everyPath?.headers).toContainEqual({
      key: 'X-Robots-Tag',
      value: 'noindex, nofollow',
    });
  });
});
