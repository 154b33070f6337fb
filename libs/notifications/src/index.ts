// Public surface of @app/notifications: the durable outbox, its dispatcher, and the signed-webhook
// and Slack adapters (docs/api.md §4.5).

export * from './message/notification';
export * from './message/outbox-message';

export * from './ports/outbox.repository.port';
export * from './ports/company-channel-directory.port';
export * from './ports/webhook-secret-source.port';

export * from './outbox/outbox-notifier';
export * from './queries/list-recent-messages.query';
export * from './channels/settings-channel-directory';
export * from './channels/derived-webhook-secret-source';

export * from './rendering/format';
export * from './rendering/notification-text';
export * from './rendering/slack-message.renderer';
export * from './rendering/webhook-envelope.renderer';

export * from './delivery/delivery-result';
export * from './delivery/http-post';
export { type ResolvedAddress, type Resolver } from './delivery/public-egress';
export * from './delivery/webhook-secret';
export * from './delivery/webhook-sender';
export * from './delivery/slack-webhook-sender';

export * from './dispatch/backoff';
export * from './dispatch/runtime';
export * from './dispatch/outbox-dispatcher';

export * from './notifications.module';
