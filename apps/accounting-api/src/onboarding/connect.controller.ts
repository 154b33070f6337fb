import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProperty,
  ApiTags,
} from '@nestjs/swagger';
import { type Identity } from '@app/domain';
import { PROVIDER_KINDS } from '@app/providers';
import { ConsoleAccess } from '@app/application';
import { Access } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { AppConfig } from '../config/app-config';
import { consoleLoginUrl } from '../console/console-login.controller';
import { ProblemDto } from '../http/problem.dto';
import { providerParam } from './provider-param';

class AuthorizeUrlDto {
  @ApiProperty({
    description:
      "Open it in the admin's own browser: a one-time web console login link (valid once, for 5 minutes). Its page " +
      'names the company and the admin; signing in leads to the company page, whose Connect button starts the ' +
      "provider's consent bound to that browser.",
    example: 'http://localhost:3000/console/login?token=…&connect=fiken',
  })
  authorizeUrl!: string;
  @ApiProperty({ example: '2026-11-20T08:05:00.000Z' })
  expiresAt!: string;
}

/**
 * The API's way to start onboarding. It hands out no provider consent URL: a connection must end
 * in the browser of an admin of the company, signed in to the console, which binds the OAuth
 * state to that browser with a cookie. So the answer is a console login link for the calling
 * admin that leads to the company page's Connect button for the provider.
 */
@ApiTags('onboarding')
@Controller('v1/config/providers')
export class ConnectController {
  constructor(
    private readonly access: ConsoleAccess,
    private readonly config: AppConfig,
  ) {}

  @Post(':provider/connect')
  @HttpCode(200)
  @Access('config', 'admin')
  @ApiOperation({
    summary:
      "Start connecting the company to Tripletex or Fiken: returns a one-time console link for the admin's browser",
    description:
      'The connection is started and finished in the web console (company page), so that it is bound to the ' +
      "browser of an admin signed in to this company's console; the link signs the calling admin in there.",
  })
  @ApiParam({ name: 'provider', enum: PROVIDER_KINDS })
  @ApiOkResponse({ type: AuthorizeUrlDto })
  @ApiNotFoundResponse({ description: 'not_found: no such provider', type: ProblemDto })
  @ApiConflictResponse({ description: 'never: connecting again replaces the connection', type: ProblemDto })
  async connect(@CurrentIdentity() identity: Identity, @Param('provider') provider: string): Promise<AuthorizeUrlDto> {
    const kind = providerParam(provider);
    const link = await this.access.issueLink(identity);
    return {
      authorizeUrl: consoleLoginUrl(this.config.publicUrl, link.secret, kind),
      expiresAt: link.expiresAt.toISOString(),
    };
  }
}
