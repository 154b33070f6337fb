import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import * as jwt from 'jsonwebtoken';
import type { KeyObject } from 'node:crypto';
import {
  Clock,
  DomainError,
  isChannel,
  isPermission,
  isRole,
  effectivePermissions,
  type Identity,
  type Permission,
} from '@app/domain';
import { AppConfig } from '../config/app-config';
import { GatewayKeyStore } from './gateway-key-store';

export const GATEWAY_JWT = 'gateway-jwt';
/** Clock skew tolerated on `exp` and `iat` (the contract allows at most 30 s). */
const LEEWAY_SECONDS = 30;
const MAX_LIFETIME_SECONDS = 3600;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The claims as verified, before the company, permission and role checks. */
export interface VerifiedClaims extends Omit<Identity, 'permissions'> {
  listedPermissions: Permission[];
}

/**
 * Contract §2 checks 1–3. passport-jwt verifies the signature (RS256 only, key chosen by `kid`)
 * and nothing else: expiry is checked here, after the signature and with the injected clock, so
 * that an expired token with a bad signature is `invalid_token` and an expired, well-signed one
 * is `token_expired` whatever its other claims say.
 */
@Injectable()
export class GatewayJwtStrategy extends PassportStrategy(Strategy, GATEWAY_JWT) {
  constructor(
    keys: GatewayKeyStore,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      algorithms: ['RS256'],
      ignoreExpiration: true,
      // The token is decoded once, by jsonwebtoken's verify: the provider hands it a key lookup
      // that verify calls with the header it has decoded (rather than decoding the token here first).
      secretOrKeyProvider: (_request: unknown, _rawJwt: string, done: (err: unknown, key?: string) => void) => {
        done(null, ((header: jwt.JwtHeader, callback: jwt.SigningKeyCallback) => {
          if (header.alg !== 'RS256') {
            callback(new Error('the token is not an RS256 JWT'));
            return;
          }
          // RFC 7515 §4.1.11: a header naming extensions as critical must be refused unless every
          // one is understood; this service understands none (and an empty list is itself invalid).
          if ('crit' in header) {
            callback(new Error('the token header names critical extensions this service does not understand'));
            return;
          }
          keys.keyFor(header.kid).then(
            // jsonwebtoken 9 verifies with a KeyObject directly; the typings only list string | Buffer.
            (key: KeyObject) => callback(null, key as unknown as string),
            (error: unknown) => callback(error as Error),
          );
        }) as unknown as string); // passport-jwt passes the key on to jwt.verify, which accepts a lookup
      },
    });
  }

  validate(payload: Record<string, unknown>): VerifiedClaims {
    const now = this.clock.now().getTime() / 1000;
    // Check 2: expiry.
    if (typeof payload.exp === 'number' && payload.exp + LEEWAY_SECONDS < now) {
      throw new DomainError('token_expired', 'the token has expired');
    }
    // Check 3: every other claim well-formed.
    const invalid = (detail: string) => new DomainError('invalid_token', detail);
    const { iss, aud, sub, iat, exp, channel, role, permissions, company_id: company } = payload;
    if (iss !== this.config.gatewayIssuer) throw invalid('iss is not the configured gateway issuer');
    if (this.config.gatewayAudience !== undefined) {
      const audiences = Array.isArray(aud) ? aud : [aud];
      if (!audiences.includes(this.config.gatewayAudience)) throw invalid('aud is not this service');
    }
    if (typeof sub !== 'string' || !EMAIL.test(sub)) throw invalid('sub must be an email');
    if (typeof iat !== 'number' || !Number.isInteger(iat)) throw invalid('iat must be an integer');
    if (typeof exp !== 'number' || !Number.isInteger(exp)) throw invalid('exp must be an integer');
    if (iat > now + LEEWAY_SECONDS) throw invalid('iat is in the future');
    if (exp - iat > MAX_LIFETIME_SECONDS) throw invalid('the token lives longer than 3600 s');
    if (exp <= iat) throw invalid('exp must be after iat');
    if (typeof company !== 'string' || company.length === 0) throw invalid('company_id must be a non-empty string');
    if (!isChannel(channel)) throw invalid('channel must be one of slack, discord, teams, web, email');
    if (!isRole(role)) throw invalid('role must be one of employee, manager, accountant, admin');
    if (!Array.isArray(permissions) || !permissions.every(isPermission)) {
      throw invalid('permissions must be an array of known permission groups');
    }
    return {
      actor: sub,
      company,
      channel,
      role,
      listedPermissions: permissions,
      tokenExpiresAt: new Date(exp * 1000),
    };
  }
}

export function toIdentity({ listedPermissions, ...claims }: VerifiedClaims): Identity {
  return { ...claims, permissions: effectivePermissions(claims.role, listedPermissions) };
}
