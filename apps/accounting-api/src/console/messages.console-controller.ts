import { Controller, Get, Req, Res, UseFilters } from '@nestjs/common';
import type { Response } from 'express';
import { GetCompanySettingsHandler } from '@app/application';
import { ListRecentMessages } from '@app/notifications';
import { ConsolePage } from '../auth/access.decorator';
import { AppConfig } from '../config/app-config';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { sendConsole } from './console-page';
import type { ConsoleRequest } from './console-session.guard';
import { ConsoleViewers } from './console-viewers';
import { renderMessagesPage } from './messages.view';

/** How many of the newest messages the page shows. */
const SHOWN = 100;

/**
 * What the service sent (or is sending) to each of the company's channels, newest first: the
 * message as the channel shows it, and its delivery state from the notification outbox. Channel
 * URLs are not shown (a Slack webhook URL is a secret).
 */
@Controller('console/messages')
@UseFilters(ConsoleExceptionFilter)
export class MessagesConsoleController {
  constructor(
    private readonly viewers: ConsoleViewers,
    private readonly listRecentMessages: ListRecentMessages,
    private readonly getSettings: GetCompanySettingsHandler,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ConsolePage('monitor', 'manager')
  async page(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const viewer = await this.viewers.of(request);
    const [messages, settings] = await Promise.all([
      this.listRecentMessages.execute(viewer.identity, SHOWN),
      this.getSettings.execute(viewer.identity),
    ]);
    sendConsole(
      response,
      200,
      renderMessagesPage({
        viewer,
        messages,
        settings,
        developmentChannel: this.config.developmentChannel,
        shown: SHOWN,
      }),
    );
  }
}
