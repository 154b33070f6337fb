import { PassThrough } from 'node:stream';
import { progressReport } from './cli-progress-report';

function stream(tty: boolean): PassThrough & { text: () => string } {
  const s = Object.assign(new PassThrough(), { isTTY: tty, columns: 100 });
  let text = '';
  s.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return Object.assign(s, { text: () => text });
}

describe('progressReport', () => {
  it('writes plain lines without a terminal: the first step, then every N items, the last, and what stop finds pending', () => {
    const out = stream(false);
    const report = progressReport(out, 'verify', { every: 10 });

    for (let done = 1; done <= 25; done++) report.update(done, 25, `companies (c${done})`);
    report.stop();

    expect(out.text().split('\n').filter(Boolean)).toEqual([
      'verify: 1/25 companies (c1)',
      'verify: 11/25 companies (c11)',
      'verify: 21/25 companies (c21)',
      'verify: 25/25 companies (c25)',
    ]);
  });

  it('ends with the last count when the total is not known', () => {
    const out = stream(false);
    const report = progressReport(out, 'kek rotate', { every: 100 });

    for (let done = 1; done <= 150; done++) report.update(done, null, 'DEK(s) examined');
    report.stop();

    expect(out.text().split('\n').filter(Boolean)).toEqual([
      'kek rotate: 1/? DEK(s) examined',
      'kek rotate: 101/? DEK(s) examined',
      'kek rotate: 150/? DEK(s) examined',
    ]);
  });

  it('draws a bar redrawn in place on a terminal, and a counter when the total is not known', () => {
    const bar = stream(true);
    const report = progressReport(bar, 'history', { percent: true });
    report.update(40, 100, '12 bookings, 2 pages');
    report.update(100, 100, '30 bookings, 5 pages');
    report.stop();
    expect(bar.text()).toMatch(/history \[=+\] 100% 30 bookings, 5 pages/);
    expect(bar.text()).not.toContain('\nhistory');

    const counter = stream(true);
    const count = progressReport(counter, 'kek rotate');
    count.update(1, null, 'DEK(s) examined');
    count.update(2, null, 'DEK(s) examined');
    count.stop();
    expect(counter.text()).toBe('\rkek rotate: 1 DEK(s) examined\u001b[K\rkek rotate: 2 DEK(s) examined\u001b[K\n');
  });
});
