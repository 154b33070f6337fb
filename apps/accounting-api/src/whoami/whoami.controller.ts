import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CHANNELS, PERMISSIONS, ROLES, type Identity } from '@app/domain';
import { Access } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';

class WhoamiDto {
  @ApiProperty({ example: 'ola@demo.no' }) actor!: string;
  @ApiProperty({ example: 'demo' }) company!: string;
  @ApiProperty({ enum: CHANNELS }) channel!: string;
  @ApiProperty({ enum: ROLES }) role!: string;
  @ApiProperty({ enum: PERMISSIONS, isArray: true, description: "the token's permissions its role allows" })
  permissions!: string[];
  @ApiProperty({ example: '2026-11-20T08:00:00.000Z' }) tokenExpiresAt!: string;
}

@ApiTags('identity')
@Controller('v1/whoami')
export class WhoamiController {
  @Get()
  @Access(null, 'employee')
  @ApiOperation({ summary: 'The verified identity of the token: for gateway builders debugging their tokens' })
  @ApiOkResponse({ type: WhoamiDto })
  whoami(@CurrentIdentity() identity: Identity): WhoamiDto {
    return { ...identity, tokenExpiresAt: identity.tokenExpiresAt.toISOString() };
  }
}
