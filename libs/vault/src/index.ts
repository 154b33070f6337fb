// Public surface of @app/vault.
export { KEY_BYTES, IV_BYTES, TAG_BYTES, type GcmBox, encrypt, decrypt, packBox, unpackBox } from './aes-gcm';
export { encodeAdditionalData, tokenAdditionalData, TOKEN_AAD_LABEL } from './additional-data';
export { Kms, KmsError, type RotatableKms, type WrappedDek, type WrapPurpose, isRotatableKms } from './ports/kms.port';
export { type WrappedDekRecord, WrappedDekRepository } from './ports/wrapped-dek-repository.port';
export { EnvelopeTokenVault, SEALED_FORMAT_V1 } from './envelope-token-vault';
export { LocalKeyringKms } from './local-keyring.kms';
export { AwsKms, type AwsKmsSettings } from './aws.kms';
export { type RewrapOptions, type RewrapResult, rewrapAll, rotateKek } from './rewrap';
export { type KmsSettings, VaultModule, type VaultModuleOptions, createKms } from './vault.module';
