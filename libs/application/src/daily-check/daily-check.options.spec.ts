import { DailyCheckOptions } from './daily-check.options';

describe('DailyCheckOptions', () => {
  it('gives Tripletex, Fiken and companies without a provider their lanes by default', () => {
    expect(new DailyCheckOptions().concurrency).toEqual({ tripletex: 16, fiken: 200, none: 2 });
  });

  it('gives every registered provider a lane, the configured figure or the default', () => {
    const options = new DailyCheckOptions({
      providers: ['tripletex', 'fiken', 'kassebok'],
      concurrency: { fiken: 50 },
    });
    expect(options.concurrency).toEqual({ tripletex: 16, fiken: 50, kassebok: 16, none: 2 });
  });

  it('keeps the defaults of figures the configuration leaves unset', () => {
    const options = new DailyCheckOptions({ concurrency: { tripletex: undefined, fiken: undefined } });
    expect(options.concurrency).toEqual({ tripletex: 16, fiken: 200, none: 2 });
  });

  it('refuses a concurrency below one', () => {
    expect(() => new DailyCheckOptions({ concurrency: { tripletex: 0 } })).toThrow('concurrency.tripletex');
  });
});
