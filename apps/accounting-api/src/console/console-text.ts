import { timeOf } from './console-format';
import { mayOpen, PROPOSAL_PAGE_RULE, type ConsoleViewer } from './console-page';
import { html, type Html } from './html';

/** An instant the engine writes into a text (`2026-11-28T16:05:00.000Z`). */
const INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z/;
/** A proposal named in a text: the word "proposal" and its id. */
const PROPOSAL = /\b([Pp]roposal) ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/;
const PARTS = new RegExp(`(${INSTANT.source})|${PROPOSAL.source}`, 'g');

/**
 * A text from the engine (a reason, a message, an error) as the console shows it: escaped, each
 * instant in it in the console's time style (`timeOf`), and each proposal it names linked to that
 * proposal's page — when the viewer may open proposal pages (every console viewer of the company
 * who sees the review queue may open any of its proposals; another company's id shows a 404).
 */
export function consoleText(viewer: ConsoleViewer, text: string): Html {
  const linked = mayOpen(viewer.identity, PROPOSAL_PAGE_RULE);
  const parts: Html[] = [];
  let last = 0;
  for (const match of text.matchAll(PARTS)) {
    parts.push(html`${text.slice(last, match.index)}`);
    const [whole, instant, word, id] = match;
    if (instant) {
      const at = new Date(instant);
      parts.push(Number.isNaN(at.getTime()) ? html`${whole}` : timeOf(viewer.locale, at));
    } else if (linked) {
      parts.push(html`${word} <a class="id" href="/console/proposals/${id}">${id}</a>`);
    } else {
      parts.push(html`${word} <span class="id">${id}</span>`);
    }
    last = match.index + whole.length;
  }
  parts.push(html`${text.slice(last)}`);
  return html`${parts}`;
}
