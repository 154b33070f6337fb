import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

/** The OpenAPI document: every route, its permission and minimum role, the bearer scheme. */
function buildOpenApi(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Accounting API')
    .setDescription(
      'Agents propose, reviewers verify, the system executes. Every /v1 route needs a gateway service ' +
        'token (RS256); each operation shows the permission group (x-permission) and minimum role ' +
        '(x-min-role) it needs. Errors are application/problem+json.',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'gateway')
    .build();
  return SwaggerModule.createDocument(app, config);
}

export function mountOpenApi(app: INestApplication): void {
  const document = buildOpenApi(app);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', raw: ['json'] });
}
