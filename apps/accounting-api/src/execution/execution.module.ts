import { Module, type DynamicModule } from '@nestjs/common';
import { ApplicationContext, ExecutorOptions, ProposalExecutor } from '@app/application';
import { ExecutorSettings } from './executor.settings';
import { ExecutorWorker } from './executor.worker';

/**
 * The executor (docs/api.md §4.4): ProposalExecutor over the persistence adapters (ExecutionQueue,
 * UnitOfWork) and the provider adapters, and the worker loop that drives it.
 */
@Module({})
export class ExecutionModule {
  /** `worker: false` (the CLI): the executor without its loop. */
  static forRoot(settings: ExecutorSettings, { worker }: { worker: boolean }): DynamicModule {
    const loop = worker ? [ExecutorWorker] : [];
    return {
      module: ExecutionModule,
      providers: [
        { provide: ExecutorSettings, useValue: settings },
        { provide: ExecutorOptions, useValue: settings.options },
        ApplicationContext,
        ProposalExecutor,
        ...loop,
      ],
      exports: [ProposalExecutor, ...loop],
    };
  }
}
