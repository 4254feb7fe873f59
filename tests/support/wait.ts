/** Waits until `check` holds, looking every 50 ms; throws after `ms`, saying `what`. */
export async function until(
  check: () => Promise<boolean> | boolean,
  ms = 20_000,
  what = 'the condition',
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
