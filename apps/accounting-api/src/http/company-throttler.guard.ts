import { createHash } from 'node:crypto';
import { Injectable, type ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { actorKey, type Identity } from '@app/domain';

/**
 * The rate limit per (company, sub) of docs/api.md §1: keyed by the verified identity the gateway
 * guard set, so all the gateway's traffic (one IP) is not lumped together, and counted across all
 * routes (the library's default key is per route). Public routes (health, metrics, docs) carry no
 * identity and are not limited.
 */
@Injectable()
export class CompanyThrottlerGuard extends ThrottlerGuard {
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return !context.switchToHttp().getRequest<{ identity?: Identity }>().identity;
  }

  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    const identity = request.identity as Identity;
    // The same person whatever the letter case of the email, as ownership checks decide (sameActor).
    return `${identity.company}\u0000${actorKey(identity.actor)}`;
  }

  /** The stores see a digest, not the company and the email. */
  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return createHash('sha256').update(tracker).digest('hex');
  }
}
