import { Injectable } from '@nestjs/common';
import { DailyCheckRuns, type DailyCheckRun } from './daily-check-runs.port';

/** The company's newest daily check run (the console's checks page); null before the first. */
@Injectable()
export class LatestDailyCheck {
  constructor(private readonly runs: DailyCheckRuns) {}

  async execute(companyId: string): Promise<DailyCheckRun | null> {
    const [latest] = await this.runs.history({ companyId, limit: 1 });
    return latest ?? null;
  }
}
