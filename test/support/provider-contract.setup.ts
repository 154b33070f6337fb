import { checkProviderContract } from '@app/testing';

// Every request the service sends to a provider sandbox during the e2e suite, and every answer,
// is checked against the providers' published definitions; a violation fails its test.
checkProviderContract();
