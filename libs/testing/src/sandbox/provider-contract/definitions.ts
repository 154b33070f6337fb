import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { load } from 'js-yaml';
import type { ProviderName } from '@app/sandbox';

/** Where the vendored definitions live (test data; see its README for provenance). */
export const DEFINITIONS_DIR = path.resolve(__dirname, '../../../../../test/fixtures/providers');

export const DEFINITION_FILES: Readonly<Record<ProviderName, string>> = {
  tripletex: 'tripletex-openapi.json',
  fiken: 'fiken-openapi.yaml',
};

/** The sha256 each vendored file must have (the README's table). */
export const DEFINITION_SHA256: Readonly<Record<ProviderName, string>> = {
  tripletex: '1d1bfb7a5c842cffeea98a27d119223f90ea187dcad0615589cceaf6c41cb86c',
  fiken: '08816f50e4365a80a850c71069c621f2b649b74c57f15c94299d0388cc23be88',
};

export type OpenApiDocument = {
  readonly paths: Record<string, Record<string, unknown>>;
  readonly components: Record<string, Record<string, unknown>>;
} & Record<string, unknown>;

const loaded = new Map<ProviderName, OpenApiDocument>();

/** A provider's published definition, parsed once per process. */
export function definitionOf(provider: ProviderName): OpenApiDocument {
  let document = loaded.get(provider);
  if (!document) {
    const text = readFileSync(path.join(DEFINITIONS_DIR, DEFINITION_FILES[provider]), 'utf8');
    document = (provider === 'fiken' ? load(text) : JSON.parse(text)) as OpenApiDocument;
    loaded.set(provider, document);
  }
  return document;
}
