/**
 * Typed reads of environment keys for the background jobs' settings (EXECUTOR_*, DAILY_CHECK_*,
 * OUTBOX_*), collecting problems into loadConfig's list. The jobs are on by default, and off by
 * default under jest (NODE_ENV=test), where tests drive them explicitly.
 */
export class EnvSettings {
  constructor(
    private readonly env: Record<string, string | undefined> = process.env,
    /** Where problems are collected: loadConfig passes its own list, so all are reported together. */
    private readonly problems: string[] = [],
  ) {}

  flag(key: string): boolean {
    const raw = this.env[key]?.trim().toLowerCase();
    if (raw === undefined || raw === '') return this.env.NODE_ENV !== 'test';
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    this.problems.push(`${key} must be true or false (got "${raw}")`);
    return false;
  }

  /** A true/false key, undefined when unset. */
  optionalFlag(key: string): boolean | undefined {
    const raw = this.env[key]?.trim();
    return raw === undefined || raw === '' ? undefined : this.flag(key);
  }

  int(key: string, min = 1): number | undefined {
    const raw = this.env[key]?.trim();
    if (raw === undefined || raw === '') return undefined;
    if (!/^\d+$/.test(raw) || Number(raw) < min) {
      this.problems.push(`${key} must be an integer ≥ ${min} (got "${raw}")`);
      return undefined;
    }
    return Number(raw);
  }
}
