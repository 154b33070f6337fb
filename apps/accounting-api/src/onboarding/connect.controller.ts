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
import { StartConnection } from '@app/application';
import { Access } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { ProblemDto } from '../http/problem.dto';
import { providerParam } from './provider-param';

class AuthorizeUrlDto {
  @ApiProperty({
    description: "Open it in the admin's browser: the provider's consent screen, valid once, for 10 minutes",
  })
  authorizeUrl!: string;
  @ApiProperty({ example: '2026-11-20T08:10:00.000Z' })
  expiresAt!: string;
}

@ApiTags('onboarding')
@Controller('v1/config/providers')
export class ConnectController {
  constructor(private readonly start: StartConnection) {}

  @Post(':provider/connect')
  @HttpCode(200)
  @Access('config', 'admin')
  @ApiOperation({
    summary:
      'Start connecting the company to Tripletex or Fiken: returns the consent URL with a signed, single-use state',
  })
  @ApiParam({ name: 'provider', enum: PROVIDER_KINDS })
  @ApiOkResponse({ type: AuthorizeUrlDto })
  @ApiNotFoundResponse({ description: 'not_found: no such provider', type: ProblemDto })
  @ApiConflictResponse({ description: 'never: connecting again replaces the connection', type: ProblemDto })
  async connect(@CurrentIdentity() identity: Identity, @Param('provider') provider: string): Promise<AuthorizeUrlDto> {
    const started = await this.start.execute(identity, providerParam(provider));
    return { authorizeUrl: started.authorizeUrl, expiresAt: started.expiresAt.toISOString() };
  }
}
