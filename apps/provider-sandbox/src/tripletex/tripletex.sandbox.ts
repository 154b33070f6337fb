import { SANDBOX_TRIPLETEX_CONSUMER_TOKEN } from '../constants';
import type { SandboxProvider } from '../sandbox-provider';
import { tripletexControl, type TripletexControl } from './tripletex.control';
import { tripletexRouter } from './tripletex.router';
import { TripletexState } from './tripletex-state';

/** Tripletex's sandbox: the API under `/tripletex/v2`, a consent page that hands out employee tokens. */
export const tripletexSandbox: SandboxProvider<'tripletex', TripletexState, TripletexControl> = {
  kind: 'tripletex',
  createState: (options) => new TripletexState(options),
  router: tripletexRouter,
  environment: (url) => ({
    TRIPLETEX_BASE_URL: `${url}/tripletex/v2`,
    TRIPLETEX_CONSENT_URL: `${url}/tripletex/consent`,
    TRIPLETEX_CONSUMER_TOKEN: SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
  }),
  control: tripletexControl,
};
