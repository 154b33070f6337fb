import { SANDBOX_FIKEN_CLIENT_ID, SANDBOX_FIKEN_CLIENT_SECRET } from '../constants';
import type { SandboxProvider } from '../sandbox-provider';
import { fikenControl, type FikenControl } from './fiken.control';
import { fikenRouter } from './fiken.router';
import { FikenState } from './fiken-state';

/** Fiken's sandbox: the API under `/fiken/api/v2`, OAuth (authorize, token, revoke) under `/fiken/oauth`. */
export const fikenSandbox: SandboxProvider<'fiken', FikenState, FikenControl> = {
  kind: 'fiken',
  createState: (options) => new FikenState(options),
  router: fikenRouter,
  environment: (url) => ({
    FIKEN_API_URL: `${url}/fiken/api/v2`,
    FIKEN_OAUTH_URL: `${url}/fiken/oauth`,
    FIKEN_CLIENT_ID: SANDBOX_FIKEN_CLIENT_ID,
    FIKEN_CLIENT_SECRET: SANDBOX_FIKEN_CLIENT_SECRET,
  }),
  control: fikenControl,
};
