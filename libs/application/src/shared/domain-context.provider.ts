import { Injectable } from '@nestjs/common';
import { Clock, IdGenerator, type DomainContext } from '@app/domain';

/** The domain's time and ids as one injectable: what every handler passes to the pure functions. */
@Injectable()
export class ApplicationContext implements DomainContext {
  constructor(
    readonly clock: Clock,
    readonly ids: IdGenerator,
  ) {}
}
