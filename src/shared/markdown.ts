import MarkdownIt from 'markdown-it';
import type { MarkdownIt as Markdown, StateCore, StateInline, Token } from 'markdown-it';
import { isSafeImage, isSafeLink } from './addresses.js';
import { MENTION_AT_START } from './mentions.js';

const LINK_REL = 'noopener noreferrer nofollow';

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

/** `@[Display Name](userId)` (see mentions.ts) becomes a mention token, shown as a chip. */
function mention(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */ || state.src.charCodeAt(state.pos + 1) !== 0x5b /* [ */) return false;
  const match = MENTION_AT_START.exec(state.src.slice(state.pos, state.posMax));
  if (!match) return false;
  if (!silent) {
    const token = state.push('mention', 'span', 0);
    token.meta = { name: match[1]!, id: (match[2] ?? match[3])! };
  }
  state.pos += match[0].length;
  return true;
}

/**
 * Markdown → HTML for card descriptions and comments, the same on the server
 * and in the web app. Safe by construction: raw HTML is never parsed (it comes
 * out as text), and links and images keep only the addresses `addresses.ts`
 * allows; a refused one stays text.
 */
function createRenderer(origin: string | undefined): Markdown {
  const md = new MarkdownIt('default', { html: false, linkify: true, breaks: true });

  // markdown-it hands this the decoded, normalised address of every link, image,
  // autolink, linkified URL and reference definition, without telling which;
  // images get the stricter check when rendered.
  md.validateLink = (url) => isSafeLink(url, origin);

  const renderToken = md.renderer.renderToken.bind(md.renderer);
  md.renderer.rules.link_open = (tokens, idx, options) => {
    const token = tokens[idx]!;
    token.attrSet('rel', LINK_REL);
    token.attrSet('target', '_blank');
    return renderToken(tokens, idx, options);
  };

  const renderImage = md.renderer.rules.image!;
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    const src = String(token.attrGet('src') ?? '');
    if (isSafeImage(src, origin)) return renderImage(tokens, idx, options, env, self);
    return md.utils.escapeHtml(`![${token.content}](${src})`);
  };

  md.inline.ruler.before('link', 'mention', mention);
  md.renderer.rules.mention = (tokens, idx) => {
    const { name, id } = tokens[idx]!.meta as { name: string; id: string };
    const { escapeHtml } = md.utils;
    return `<span class="mention" data-user-id="${escapeHtml(id)}">@${escapeHtml(name)}</span>`;
  };

  md.core.ruler.push('checklists', checklists);
  md.renderer.rules.checkbox = (tokens, idx) => {
    const checked = (tokens[idx]!.meta as { checked: boolean }).checked;
    return checked ? '<input type="checkbox" disabled checked> ' : '<input type="checkbox" disabled> ';
  };
  return md;
}

/** One renderer per instance address: in practice one on the server and one in the browser. */
const renderers = new Map<string | undefined, Markdown>();

/**
 * The HTML for a piece of stored Markdown. `origin` is the instance's own
 * address, so that full addresses on it are held to the same rules as paths.
 */
export function renderMarkdown(source: string, origin?: string): string {
  let md = renderers.get(origin);
  if (!md) renderers.set(origin, (md = createRenderer(origin)));
  return md.render(source);
}
