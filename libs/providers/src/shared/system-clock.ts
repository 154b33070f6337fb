import { Clock } from '@app/domain';

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
