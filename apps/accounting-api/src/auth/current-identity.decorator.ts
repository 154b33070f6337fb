import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Identity } from '@app/domain';

/** The verified identity of the caller, set by the gateway guard. */
export const CurrentIdentity = createParamDecorator((_: unknown, context: ExecutionContext): Identity => {
  const request = context.switchToHttp().getRequest<{ identity?: Identity }>();
  if (!request.identity) throw new Error('CurrentIdentity used on a route without the gateway guard');
  return request.identity;
});
