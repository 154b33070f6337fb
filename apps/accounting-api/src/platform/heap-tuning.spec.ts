import { spawnSync } from 'node:child_process';
import { loadConfig } from '../config/app-config';
import { applyHeapTuning, heapGrowingFlag, NO_PRETENURING_FLAG } from './heap-tuning';

describe('heap tuning', () => {
  it('turns allocation-site pretenuring off and lets the heap grow 50 % past its live data by default', () => {
    const setFlags = jest.fn();
    applyHeapTuning(loadConfig({}), setFlags);
    expect(setFlags.mock.calls).toEqual([[NO_PRETENURING_FLAG], ['--heap-growing-percent=50']]);
  });

  it('leaves V8 alone with V8_ALLOCATION_SITE_PRETENURING=true and V8_HEAP_GROWING_PERCENT=0', () => {
    const setFlags = jest.fn();
    applyHeapTuning(loadConfig({ V8_ALLOCATION_SITE_PRETENURING: 'true', V8_HEAP_GROWING_PERCENT: '0' }), setFlags);
    expect(setFlags).not.toHaveBeenCalled();
  });

  it('takes another growth from V8_HEAP_GROWING_PERCENT and refuses one out of range', () => {
    const setFlags = jest.fn();
    applyHeapTuning(loadConfig({ V8_HEAP_GROWING_PERCENT: '100' }), setFlags);
    expect(setFlags).toHaveBeenCalledWith('--heap-growing-percent=100');
    expect(() => loadConfig({ V8_HEAP_GROWING_PERCENT: '-5' })).toThrow(/V8_HEAP_GROWING_PERCENT/);
    expect(() => loadConfig({ V8_HEAP_GROWING_PERCENT: 'lots' })).toThrow(/V8_HEAP_GROWING_PERCENT/);
  });

  it('names flags this V8 accepts', () => {
    // node refuses an unknown V8 flag on its command line ("bad option", status 9).
    const result = spawnSync(process.execPath, [NO_PRETENURING_FLAG, heapGrowingFlag(50), '-e', ''], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
  });
});
