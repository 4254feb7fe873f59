import { defineConfig, devices } from '@playwright/test';
import base from './playwright.config';

// `npm run screenshots`: the same stack as the e2e suite (run `npm run build` first), the setup
// projects to make the demo organisation, then e2e/docs.shots.ts, which writes the README's
// screenshots into docs/ and every page at phone and laptop width, light and dark, into
// test-results/screenshots/ for review.
export default defineConfig({
  ...base,
  reporter: [['list']],
  projects: [
    ...(base.projects ?? []).filter(
      (project) => project.name === 'first-run' || project.name === 'members',
    ),
    {
      name: 'docs',
      dependencies: ['members'],
      testMatch: /docs\.shots\.ts$/,
      use: { ...devices['Desktop Chrome'] },
    },
  ],
});
