import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The shape of the code's dependencies: `lib/` never reaches into `components/` or `app/` (the
 * domain does not depend on its pages), and no module imports itself through a cycle (a cycle
 * makes load order matter and hides which module owns what). Type-only imports count too.
 */
const ROOT = process.cwd();
const SOURCES = ['app', 'components', 'lib'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'migrations' ? [] : filesUnder(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

function resolve(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith('@/')) base = path.join(ROOT, specifier.slice(2));
  else if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const files = SOURCES.flatMap((dir) => filesUnder(path.join(ROOT, dir)));
const graph = new Map(
  files.map((file) => {
    const text = readFileSync(file, 'utf8');
    const specifiers = [
      ...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g),
    ]
      .map((match) => match[1] ?? '')
      .concat([...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? ''));
    const targets = specifiers
      .map((specifier) => resolve(file, specifier))
      .filter((target): target is string => target !== null);
    return [file, targets] as const;
  }),
);
const relative = (file: string) => path.relative(ROOT, file);

describe('the import graph', () => {
  it('keeps lib/ free of components/ and app/', () => {
    const reaching = [...graph].flatMap(([file, targets]) =>
      relative(file).startsWith('lib/')
        ? targets
            .filter((target) => /^(components|app)\//.test(relative(target)))
            .map((target) => `${relative(file)} -> ${relative(target)}`)
        : [],
    );
    expect(reaching).toEqual([]);
  });

  it('has no cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'visiting');
      stack.push(file);
      for (const target of graph.get(file) ?? []) {
        if (state.get(target) === 'visiting') {
          cycles.push([...stack.slice(stack.indexOf(target)), target].map(relative).join(' -> '));
        } else if (!state.has(target)) visit(target);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });
});
