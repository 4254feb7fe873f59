import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The documents point only at files that are in the repository, and the README stays short: what
 * Setpoint is, the two commands, configuration, the layout and an index of the other documents.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const README_MAX_BYTES = 10_000;

const DOCS = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  'bench/README.md',
  'sandbox/README.md',
];

/** Fenced code blocks go; inline code spans become a placeholder, so `[`code`](target)` stays a link. */
function withoutCode(markdown: string): string {
  return markdown
    .replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, '')
    .replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, 'code');
}

/** The target of an inline link or image that starts at `start` (just after its `](`). */
function targetAt(text: string, start: number): string {
  if (text[start] === '<') return text.slice(start + 1, text.indexOf('>', start));
  let depth = 0;
  let end = start;
  for (; end < text.length; end += 1) {
    const char = text[end];
    if (char === '(') depth += 1;
    else if (char === ')') {
      if (depth === 0) break;
      depth -= 1;
    } else if (char === ' ' || char === '\n') break;
  }
  return text.slice(start, end);
}

/** Every link and image target in a markdown document: inline, and reference definitions. */
function linkTargets(markdown: string): string[] {
  const text = withoutCode(markdown);
  const targets: string[] = [];
  for (const match of text.matchAll(/\]\(/g)) targets.push(targetAt(text, match.index + 2));
  for (const match of text.matchAll(/^ {0,3}\[[^\]\n]+\]:\s*<?([^\s>]+)>?/gm)) {
    if (match[1]) targets.push(match[1]);
  }
  return targets.map((target) => target.trim()).filter(Boolean);
}

/** A target inside the repository: not a URL with a scheme, not an anchor on the same page. */
function isRelative(target: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#');
}

/** The file a relative target names, from the document's folder, without its anchor or query. */
function resolveTarget(doc: string, target: string): string {
  const file = decodeURIComponent(target.replace(/[#?].*$/, ''));
  return file.startsWith('/')
    ? path.join(ROOT, file)
    : path.resolve(path.dirname(path.join(ROOT, doc)), file);
}

describe('the documents', () => {
  it('are all there to check', () => {
    for (const doc of DOCS) expect(existsSync(path.join(ROOT, doc)), doc).toBe(true);
    expect(DOCS).toEqual(expect.arrayContaining(['docs/features.md', 'docs/testing.md']));
  });

  it.each(DOCS)('%s links only to files in the repository', (doc) => {
    const targets = linkTargets(readFileSync(path.join(ROOT, doc), 'utf8')).filter(isRelative);
    const missing = targets.filter((target) => !existsSync(resolveTarget(doc, target)));
    expect(missing, `${doc} links to files that do not exist`).toEqual([]);
  });

  it('the README is at most 10,000 bytes', () => {
    expect(statSync(path.join(ROOT, 'README.md')).size).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it('the README links to every document in docs/, and to the latest benchmark results', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const targets = new Set(linkTargets(readme).map((target) => target.replace(/#.*$/, '')));
    for (const doc of DOCS.filter((name) => name !== 'README.md')) {
      expect(targets, `README.md does not link ${doc}`).toContain(doc);
    }
    const latest = readdirSync(path.join(ROOT, 'bench/results'))
      .filter((name) => name.endsWith('.md'))
      .sort(byRun)
      .at(-1);
    expect(targets).toContain(`bench/results/${latest}`);
  });
});

/** Results are named `<date>-<machine>.md`, then `-2`, `-3` for later runs that day. */
function byRun(a: string, b: string): number {
  const key = (name: string) => {
    const match = /^(\d{4}-\d{2}-\d{2})-(.+?)(?:-(\d+))?\.md$/.exec(name);
    return { date: match?.[1] ?? name, run: Number(match?.[3] ?? 1) };
  };
  const [left, right] = [key(a), key(b)];
  return left.date === right.date ? left.run - right.run : left.date < right.date ? -1 : 1;
}

describe('linkTargets', () => {
  it('reads inline links, images, angle brackets, parentheses and reference definitions', () => {
    const markdown = [
      'See [a](docs/a.md#part) and ![b](b.png "title") and [`c`](<../app/(app)/c.ts>).',
      'And [d](../app/(app)/d.ts), [e](https://example.com), [f](#here).',
      '```sh',
      '[not](a-link.md)',
      '```',
      'Inline `[not](either.md)` code.',
      '[g]: ./g.md',
    ].join('\n');
    expect(linkTargets(markdown)).toEqual([
      'docs/a.md#part',
      'b.png',
      '../app/(app)/c.ts',
      '../app/(app)/d.ts',
      'https://example.com',
      '#here',
      './g.md',
    ]);
  });
});
