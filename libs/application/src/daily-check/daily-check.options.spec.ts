import { DailyCheckOptions } from './daily-check.options';

describe('DailyCheckOptions', () => {
  it('gives companies without a provider their lane, and no provider one unless named', () => {
    expect(new DailyCheckOptions().concurrency).toEqual({ none: 2 });
  });

  it('gives every provider named a lane, its figure or the default', () => {
    const options = new DailyCheckOptions({ concurrency: { tripletex: 16, fiken: 50, kassebok: undefined } });
    expect(options.concurrency).toEqual({ tripletex: 16, fiken: 50, kassebok: 16, none: 2 });
  });

  it('refuses a concurrency below one', () => {
    expect(() => new DailyCheckOptions({ concurrency: { tripletex: 0 } })).toThrow('concurrency.tripletex');
  });
});
