/**
 * The sandbox clock: real time plus an adjustable offset. It keeps running after it is set or
 * advanced, so short real waits still count. Every expiry in the sandbox reads this clock.
 */
export class Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  iso(): string {
    return new Date(this.now()).toISOString();
  }

  set(epochMs: number): void {
    this.offsetMs = epochMs - Date.now();
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }

  reset(): void {
    this.offsetMs = 0;
  }

  get offset(): number {
    return this.offsetMs;
  }
}

/** From this instant (sandbox clock) every access token is a JWT and refresh tokens change format. */
export const TOKEN_FORMAT_SWITCH_MS = Date.UTC(2020, 11, 1);
