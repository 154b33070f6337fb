import { drainPage } from './json';

describe('drainPage', () => {
  it('hands out every object of a page in order and lets go of each one as it goes', () => {
    const page: unknown[] = [{ id: 1 }, 'not an object', { id: 3 }];
    const seen: unknown[] = [];
    for (const item of drainPage(page)) {
      seen.push(item);
      // What the generator holds on to while its consumer works: nothing of what it handed out.
      expect(page[seen.length - 1]).toBeUndefined();
    }

    expect(seen).toEqual([{ id: 1 }, {}, { id: 3 }]);
    expect(page).toEqual([undefined, undefined, undefined]);
  });
});
