import { Injectable } from '@nestjs/common';
import { Clock } from '@app/domain';

@Injectable()
export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
