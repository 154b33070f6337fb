import { Module, type DynamicModule } from '@nestjs/common';
import { ExecutorSettings } from './executor.settings';
import { ExecutorWorker } from './executor.worker';

/**
 * The executor's loop (docs/api.md §4.4): the worker that drives ProposalExecutor (a use case of
 * ApplicationModule, configured with `settings.options` there).
 */
@Module({})
export class ExecutionModule {
  /** `worker: false` (the CLI): the executor without its loop. */
  static forRoot(settings: ExecutorSettings, { worker }: { worker: boolean }): DynamicModule {
    const loop = worker ? [ExecutorWorker] : [];
    return {
      module: ExecutionModule,
      providers: [{ provide: ExecutorSettings, useValue: settings }, ...loop],
      exports: loop,
    };
  }
}
