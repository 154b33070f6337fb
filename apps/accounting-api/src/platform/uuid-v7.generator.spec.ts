import { describeIdGeneratorContract, ManualClock } from '@app/testing';
import { UuidV7Generator } from './uuid-v7.generator';

describeIdGeneratorContract('UuidV7Generator', () => {
  const clock = new ManualClock();
  return { generator: new UuidV7Generator(clock), setClock: (instant) => clock.set(instant) };
});

describe('UUIDv7 ids', () => {
  it('are RFC 9562 version 7, variant 10, and strictly increasing even within one millisecond', () => {
    const fixed = new Date('2026-11-20T10:00:00.000Z');
    const generator = new UuidV7Generator({ now: () => fixed });
    const many = Array.from({ length: 1000 }, () => generator.next());
    for (const id of many) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...many].sort()).toEqual(many);
    expect(new Set(many).size).toBe(many.length);
    expect(parseInt(many[0]!.replace(/-/g, '').slice(0, 12), 16)).toBe(fixed.getTime());
  });

  it('keep drawing fresh random bits across refills of the random pool', () => {
    let ms = Date.parse('2026-11-20T10:00:00.000Z');
    const generator = new UuidV7Generator({ now: () => new Date(ms++) });
    // 2 000 ids span four pools of 512; each id's random tail (rand_b) is its own.
    const tails = Array.from({ length: 2000 }, () => generator.next().slice(19));
    expect(new Set(tails).size).toBe(tails.length);
    expect(tails.filter((tail) => /^[89ab]000-0{12}$/.test(tail))).toEqual([]);
  });
});
