/**
 * A 0..1 score as a whole percentage, never rounded up across a boundary: 0.8999 is "89", 0.96 is
 * "96" (floating-point noise such as 0.29 × 100 = 28.999… is removed first).
 */
export function percent(score: number): string {
  if (!Number.isFinite(score)) return '?';
  const clamped = Math.min(1, Math.max(0, score));
  return String(Math.floor(Math.round(clamped * 10_000) / 100));
}

/** `1249.50 NOK`: the contract's decimal string, untouched, with its currency. */
export function money(amount: string, currency: string): string {
  return `${amount} ${currency}`;
}

export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** Escapes user-supplied text for Slack mrkdwn so that `<!channel>` or `<url|…>` stay literal. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A Slack link `<url|label>`, or the escaped label alone when the url is not plain http(s). */
export function mrkdwnLink(url: string | undefined, label: string): string {
  if (!url || !/^https?:\/\//i.test(url)) return escapeMrkdwn(label);
  const safeUrl = url.replace(/[<>|\s]/g, (c) => encodeURIComponent(c));
  return `<${safeUrl}|${escapeMrkdwn(label).replace(/\|/g, '¦')}>`;
}
