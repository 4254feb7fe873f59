import { describe, expect, it } from 'vitest';
import { safeReturnPath } from '@/lib/platform/return-path';

describe('safeReturnPath', () => {
  it.each([
    ['/buildings/5f0c?tab=status#top', '/buildings/5f0c?tab=status#top'],
    ['/', '/'],
  ])('keeps the same-origin path %s', (input, expected) => {
    expect(safeReturnPath(input)).toBe(expected);
  });

  it.each([
    'https://evil.example/',
    '//evil.example',
    '/\\evil.example',
    '/.//evil.example',
    '/a/..//evil.example',
    '/%2e%2e//evil.example',
    '/./\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    '/%0d%0aSet-Cookie:x=1'.replace('%0d%0a', '\r\n'),
    'buildings',
    '',
    undefined,
    ['/'],
    `/${'a'.repeat(3000)}`,
  ])('turns %j into /', (input) => {
    expect(safeReturnPath(input)).toBe('/');
  });
});
