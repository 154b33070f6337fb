import { spawnSync } from 'node:child_process';
import { loadConfig } from '../config/app-config';
import { applyHeapTuning, NO_PRETENURING_FLAG } from './heap-tuning';

describe('heap tuning', () => {
  it('turns allocation-site pretenuring off by default', () => {
    const setFlags = jest.fn();
    applyHeapTuning(loadConfig({}), setFlags);
    expect(setFlags).toHaveBeenCalledWith(NO_PRETENURING_FLAG);
  });

  it('leaves V8 alone with V8_ALLOCATION_SITE_PRETENURING=true', () => {
    const setFlags = jest.fn();
    applyHeapTuning(loadConfig({ V8_ALLOCATION_SITE_PRETENURING: 'true' }), setFlags);
    expect(setFlags).not.toHaveBeenCalled();
  });

  it('names a flag this V8 accepts', () => {
    // node refuses an unknown V8 flag on its command line ("bad option", status 9).
    const result = spawnSync(process.execPath, [NO_PRETENURING_FLAG, '-e', ''], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
  });
});
