import { defineConfig, devices } from '@playwright/test';
import base from './playwright.config';

// `npm run screenshots`: the same stack as the e2e suite (run `npm run build` first), the setup
// projects to make the demo organisation, then e2e/docs.shots.ts, which writes the README's
// screenshots into docs/ and every page at phone and laptop width, light and dark, into
// test-results/screenshots/ for review.
// As a deployment runs: background reading on, so that the pictures show a portfolio whose
// checks have run (maintenance dates read, the week's items listed), not a suite's quiet stack.
const servers = Array.isArray(base.webServer) ? base.webServer : [];
const webServer = servers.map((server) =>
  server.env?.READINGS_TARGET_MINUTES === undefined
    ? server
    : { ...server, env: { ...server.env, READINGS_TARGET_MINUTES: '5' } },
);

export default defineConfig({
  ...base,
  webServer,
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
