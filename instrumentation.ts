// Runs once when a server process starts (never during `next build`).
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startUp } = await import('./lib/jobs/start-up');
    await startUp();
  }
}
