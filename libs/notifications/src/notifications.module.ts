import {
  type DynamicModule,
  Injectable,
  Logger,
  Module,
  type ModuleMetadata,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Clock, IdGenerator, Notifier } from '@app/domain';
import { SlackWebhookSender } from './delivery/slack-webhook-sender';
import { WebhookSender } from './delivery/webhook-sender';
import { OutboxDispatcher, type OutboxDispatcherOptions } from './dispatch/outbox-dispatcher';
import type { LogFields, NotificationLogger } from './dispatch/runtime';
import { OutboxNotifier } from './outbox/outbox-notifier';
import { ListRecentMessages } from './queries/list-recent-messages.query';
import { CompanyChannelDirectory } from './ports/company-channel-directory.port';
import { OutboxRepository } from './ports/outbox.repository.port';

export interface NotificationsModuleOptions {
  /**
   * Modules that provide OutboxRepository, CompanyChannelDirectory, Clock and IdGenerator (unless
   * they are global). The app module chooses the adapters.
   */
  imports?: ModuleMetadata['imports'];
  /** Batch size, poll interval, lease, backoff and dead-letter policy. */
  dispatcher?: Pick<
    OutboxDispatcherOptions,
    'batchSize' | 'pollIntervalMs' | 'leaseMs' | 'backoff' | 'deadLetter' | 'developmentChannel'
  >;
  /** Per-attempt HTTP timeout of both senders. Default 10 s. */
  sendTimeoutMs?: number;
  /**
   * Deliver to loopback, private and other internal addresses (development). Default false: a
   * target whose address, literal or resolved when connecting, is not public is refused.
   */
  allowInternalTargets?: boolean;
  /** Start the dispatcher's polling loop with the application. Default true. */
  autoStart?: boolean;
}

/** The options as an injection token (a class, not a string). */
export class NotificationsConfig {
  constructor(readonly autoStart: boolean) {}
}

function nestLogger(context: string): NotificationLogger {
  const logger = new Logger(context);
  return {
    info: (message: string, fields?: LogFields) => logger.log({ msg: message, ...fields }),
    warn: (message: string, fields?: LogFields) => logger.warn({ msg: message, ...fields }),
    error: (message: string, fields?: LogFields) => logger.error({ msg: message, ...fields }),
  };
}

/** Runs the dispatcher with the application: starts after bootstrap, drains the pass on shutdown. */
@Injectable()
export class NotificationsLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly dispatcher: OutboxDispatcher,
    private readonly config: NotificationsConfig,
    private readonly webhook: WebhookSender,
    private readonly slack: SlackWebhookSender,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.autoStart) this.dispatcher.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.dispatcher.stop();
    await Promise.all([this.webhook.close(), this.slack.close()]);
  }
}

/**
 * Nest wiring of the framework-free core: the two senders, the dispatcher (polling while the app
 * runs) and the OutboxNotifier, also provided as the domain's Notifier for producers outside a unit
 * of work (inside one, the unit of work hands out a notifier over its own transaction).
 */
@Module({})
export class NotificationsModule {
  static register(options: NotificationsModuleOptions = {}): DynamicModule {
    const senderOptions = {
      ...(options.sendTimeoutMs === undefined ? {} : { timeoutMs: options.sendTimeoutMs }),
      allowInternalTargets: options.allowInternalTargets ?? false,
    };
    return {
      module: NotificationsModule,
      imports: options.imports ?? [],
      providers: [
        { provide: NotificationsConfig, useValue: new NotificationsConfig(options.autoStart ?? true) },
        { provide: WebhookSender, useFactory: () => new WebhookSender(senderOptions) },
        { provide: SlackWebhookSender, useFactory: () => new SlackWebhookSender(senderOptions) },
        {
          provide: OutboxDispatcher,
          inject: [OutboxRepository, CompanyChannelDirectory, WebhookSender, SlackWebhookSender, Clock],
          useFactory: (
            repository: OutboxRepository,
            channels: CompanyChannelDirectory,
            webhook: WebhookSender,
            slack: SlackWebhookSender,
            clock: Clock,
          ) =>
            new OutboxDispatcher(
              { repository, channels, webhook, slack, clock },
              { ...options.dispatcher, logger: nestLogger(OutboxDispatcher.name) },
            ),
        },
        {
          provide: OutboxNotifier,
          inject: [OutboxRepository, Clock, IdGenerator],
          useFactory: (repository: OutboxRepository, clock: Clock, ids: IdGenerator) =>
            new OutboxNotifier(repository, clock, ids),
        },
        { provide: Notifier, useExisting: OutboxNotifier },
        {
          provide: ListRecentMessages,
          inject: [OutboxRepository],
          useFactory: (repository: OutboxRepository) => new ListRecentMessages(repository),
        },
        NotificationsLifecycle,
      ],
      exports: [OutboxDispatcher, OutboxNotifier, Notifier, WebhookSender, SlackWebhookSender, ListRecentMessages],
    };
  }
}
