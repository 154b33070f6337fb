import { aNewOutboxMessage, InMemoryOutboxRepository } from '@app/testing';
import { ListRecentMessages } from './list-recent-messages.query';

describe('ListRecentMessages', () => {
  it("lists the caller's company's messages only, newest first, at most `limit`", async () => {
    const outbox = new InMemoryOutboxRepository();
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 7, minute));
    await outbox.enqueue([
      aNewOutboxMessage({ id: 'a-1', companyId: 'acme', createdAt: at(1) }),
      aNewOutboxMessage({ id: 'b-1', companyId: 'other', createdAt: at(2) }),
      aNewOutboxMessage({ id: 'a-2', companyId: 'acme', createdAt: at(3) }),
      aNewOutboxMessage({ id: 'a-3', companyId: 'acme', createdAt: at(4) }),
    ]);
    const query = new ListRecentMessages(outbox);

    expect((await query.execute({ company: 'acme' }, 10)).map((m) => m.id)).toEqual(['a-3', 'a-2', 'a-1']);
    expect((await query.execute({ company: 'acme' }, 2)).map((m) => m.id)).toEqual(['a-3', 'a-2']);
    expect((await query.execute({ company: 'other' }, 10)).map((m) => m.id)).toEqual(['b-1']);
    expect(() => query.execute({ company: 'acme' }, 0)).toThrow(RangeError);
  });
});
