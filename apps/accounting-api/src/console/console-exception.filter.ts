import { ArgumentsHost, Catch, Logger, type ExceptionFilter } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { ERROR_STATUS } from '../http/error-codes';
import { problemOf } from '../http/problem-details.filter';
import { html } from './html';
import { ConsoleAccessRefused, ConsoleCsrfRefused, ConsoleSignInRequired } from './console-errors';
import { refusalText } from './console-refusal';
import { bareConsolePage, sendConsole } from './console-page';

/**
 * The console's errors as pages a person can read, with the same status codes the API's
 * problem+json would carry: 401 without a session, 403 for a missing CSRF token or a page the
 * session may not open (saying in words who may), 404/409/422 from the use cases. Unknown failures are logged with an error id.
 */
@Catch()
export class ConsoleExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Console');

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request & { id?: string }>();
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    if (exception instanceof ConsoleSignInRequired) {
      sendConsole(
        response,
        401,
        bareConsolePage(
          'Sign in to the console',
          html`<p>
            There is no console session in this browser, or it has ended. Ask for a new login link (in your chat, or
            from an operator) and open it here.
          </p>`,
        ),
      );
      return;
    }
    if (exception instanceof ConsoleCsrfRefused) {
      sendConsole(
        response,
        403,
        bareConsolePage(
          'The form was refused',
          html`<p>
            The request did not carry the form token of your console sign-in, so it may not have come from the console.
            Nothing was changed. <a href="/console/review">Back to the console</a>
          </p>`,
        ),
      );
      return;
    }
    if (exception instanceof ConsoleAccessRefused) {
      sendConsole(
        response,
        403,
        bareConsolePage(
          'Not open to you',
          html`<p role="alert">${refusalText(exception.rule, exception.identity)}</p>
            <p>Nothing was changed. <a href="/console/review">Back to the console</a></p>`,
        ),
      );
      return;
    }
    const problem = problemOf(exception, request);
    const { status, title } = ERROR_STATUS[problem.code];
    let detail = problem.detail;
    if (problem.code === 'internal_error') {
      const errorId = randomUUID();
      this.logger.error({ err: exception, errorId, requestId: request.id }, 'unhandled console error');
      detail = `Something went wrong on our side (error id ${errorId}). Nothing you sent was lost; try again.`;
    }
    if (problem.retryAfterSeconds !== undefined) response.setHeader('Retry-After', String(problem.retryAfterSeconds));
    const fields = (problem.errors ?? []).map((e) => html`<li>${e.field}: ${e.message}</li>`);
    sendConsole(
      response,
      status,
      bareConsolePage(
        title,
        html`<p role="alert">${detail}</p>
          ${
            fields.length
              ? html`<ul>
                  ${fields}
                </ul>`
              : html``
          }
          <p><a href="/console/review">Back to the console</a></p>`,
      ),
    );
  }
}
