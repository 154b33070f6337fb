import { drainPage, mapPage } from './json';

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

describe('mapPage', () => {
  it('maps every object of a page in order, skips what the mapper declines and empties the page', () => {
    const page: unknown[] = [{ id: 1 }, 'not an object', { id: 3 }, { id: 4 }];
    const mapped = mapPage(page, (item) => (item.id === 3 ? undefined : { id: item.id ?? null }));

    expect(mapped).toEqual([{ id: 1 }, { id: null }, { id: 4 }]);
    expect(page).toHaveLength(0);
  });
});
