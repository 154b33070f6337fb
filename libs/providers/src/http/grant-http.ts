import { ProviderError, type ProviderKind } from '@app/domain';

/**
 * One onboarding call (a grant exchange's): the provider's answer as JSON with its headers, or a
 * ProviderError saying what went wrong. The message never carries the URL (it may hold a token).
 */
export async function grantCall(
  provider: ProviderKind,
  what: string,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<{ body: unknown; headers: Headers }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new ProviderError(
      provider,
      timedOut ? 'timeout' : 'unavailable',
      `${provider} ${what}: ${timedOut ? 'no answer in time' : 'could not connect'}`,
    );
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (response.ok) return { body: body ?? {}, headers: response.headers };
  const message =
    stringField(body, 'message') ??
    stringField(body, 'error_description') ??
    stringField(body, 'error') ??
    response.statusText;
  const reason = response.status >= 500 || response.status === 429 ? 'unavailable' : 'rejected';
  throw new ProviderError(
    provider,
    reason,
    `${provider} ${what} answered ${response.status}: ${message}`.slice(0, 500),
    {
      status: response.status,
    },
  );
}

export function objectField(value: unknown, key: string): Record<string, unknown> {
  const field = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return field && typeof field === 'object' ? (field as Record<string, unknown>) : {};
}

export function stringField(value: unknown, key: string): string | undefined {
  const field = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return typeof field === 'string' && field !== '' ? field : undefined;
}
