import * as domain from '@app/domain';
import {
  DEFAULT_TARGET,
  NOTIFICATION_KINDS,
  NOTIFICATION_TARGETS,
  type NotificationKind,
  threadOf,
} from './notification';

describe('notification model', () => {
  it("names exactly the domain Notifier port's kinds and targets", () => {
    // Both directions must type-check: the two unions are the same set.
    const fromDomain: readonly NotificationKind[] = domain.NOTIFICATION_KINDS;
    const toDomain: readonly domain.NotificationKind[] = NOTIFICATION_KINDS;

    expect([...fromDomain].sort()).toEqual([...toDomain].sort());
    expect([...domain.NOTIFICATION_TARGETS].sort()).toEqual([...NOTIFICATION_TARGETS].sort());
  });

  it('routes every kind to a target by default', () => {
    for (const kind of NOTIFICATION_KINDS) expect(NOTIFICATION_TARGETS).toContain(DEFAULT_TARGET[kind]);
    expect(DEFAULT_TARGET.proposal_auto_approved).toBe('user_thread');
    expect(DEFAULT_TARGET.daily_check).toBe('invoices');
  });

  it('knows the thread only of messages to the requesting user', () => {
    const thread = { channel: 'slack', threadId: 'C01/1' };
    expect(threadOf({ kind: 'proposal_rejected', payload: { thread } as never })).toEqual(thread);
    expect(threadOf({ kind: 'daily_check', payload: {} as never })).toBeNull();
  });
});
