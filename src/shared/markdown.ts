import MarkdownIt from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';

/**
 * Markdown → HTML for card descriptions and comments, the same on the server
 * and in the web app. Safe by construction: raw HTML is never parsed (it comes
 * out as text), and links and images keep only addresses from the allow list.
 */
const md = new MarkdownIt('default', { html: false, linkify: true, breaks: true });

/** Whitespace and control characters, which browsers drop or ignore inside a URL. */
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u0020\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\u2060\ufeff]/g;
const SAFE_SCHEME = /^(?:https?|mailto):/;

/**
 * Whether an address may become an `href` or `src`: `http:`, `https:`,
 * `mailto:`, or relative from the root (`/…`) or the page (`#…`). Anything
 * else, with or without a scheme, is refused.
 */
export function isSafeUrl(url: string): boolean {
  const plain = url.replace(INVISIBLE, '').toLowerCase();
  return SAFE_SCHEME.test(plain) || plain.startsWith('/') || plain.startsWith('#');
}

// markdown-it hands this the decoded, normalised address of every link, image,
// autolink, linkified URL and reference definition; a refused one stays text.
md.validateLink = isSafeUrl;

const LINK_REL = 'noopener noreferrer nofollow';
const renderToken = md.renderer.renderToken.bind(md.renderer);

md.renderer.rules.link_open = (tokens, idx, options) => {
  const token = tokens[idx]!;
  token.attrSet('rel', LINK_REL);
  token.attrSet('target', '_blank');
  return renderToken(tokens, idx, options);
};

/** `[ ]`, `[x]` or `[X]` opening a list item, then a space or the end. */
const TASK = /^\[([ xX])\](?=\s|$)/;

/**
 * Checklist items (`- [ ] …` / `- [x] …`, the lines `checklistOf` counts)
 * start with a disabled checkbox instead of the brackets.
 */
function checklists(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i]!;
    const item = tokens[i - 2]!;
    if (inline.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open' || item.type !== 'list_item_open') continue;
    if (!['-', '*', '+'].includes(item.markup)) continue;
    const match = TASK.exec(inline.content);
    const first = inline.children?.[0];
    if (!match || first?.type !== 'text' || !TASK.test(first.content)) continue;
    first.content = first.content.slice(3).replace(/^[ \t]/, '');
    const box: Token = new state.Token('checkbox', 'input', 0);
    box.meta = { checked: match[1] !== ' ' };
    inline.children!.unshift(box);
    item.attrJoin('class', 'task-list-item');
  }
}

md.core.ruler.push('checklists', checklists);
md.renderer.rules.checkbox = (tokens, idx) => {
  const checked = (tokens[idx]!.meta as { checked: boolean }).checked;
  return checked ? '<input type="checkbox" disabled checked> ' : '<input type="checkbox" disabled> ';
};

/** The HTML for a piece of stored Markdown. */
export function renderMarkdown(source: string): string {
  return md.render(source);
}
