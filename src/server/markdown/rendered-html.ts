import { renderMarkdown } from '../../shared/markdown.js';

/** What a rendering is kept for: a card's description or a comment, as of one change. */
export interface Version {
  kind: 'card' | 'comment';
  id: number;
  updatedAt: string | Date;
}

interface Entry {
  content: string;
  html: string;
  bytes: number;
}

/**
 * Rendered Markdown, kept per thing and change, so re-reading a card or its
 * comments does not render them again. The Markdown is compared too before
 * a kept rendering is used, so a reused id (a restored dump, a second app in
 * the process) can never show another text. The least recently used go first
 * once the byte bound is reached.
 */
export class RenderedHtmlCache {
  private readonly entries = new Map<string, Entry>();
  private total = 0;

  constructor(
    readonly maxBytes: number,
    private readonly render: (markdown: string) => string = renderMarkdown,
  ) {}

  get bytes(): number {
    return this.total;
  }

  html(version: Version, content: string): string {
    if (content === '') return this.render(content);
    const stamp = version.updatedAt instanceof Date ? version.updatedAt.toISOString() : version.updatedAt;
    const key = `${version.kind}|${version.id}|${stamp}`;
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      this.entries.delete(key);
      if (kept.content === content) {
        this.entries.set(key, kept);
        return kept.html;
      }
      this.total -= kept.bytes;
    }
    const html = this.render(content);
    // Two bytes a character at most, as V8 keeps strings.
    const bytes = (content.length + html.length + key.length) * 2;
    if (bytes > this.maxBytes) return html;
    this.entries.set(key, { content, html, bytes });
    this.total += bytes;
    while (this.total > this.maxBytes) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.total -= entry.bytes;
    }
    return html;
  }
}

/** Room for the renderings of a few thousand typical cards and comments. */
const shared = new RenderedHtmlCache(16 * 1024 * 1024);

/** `content` as HTML, rendered once per version of the thing it belongs to. */
export function renderedHtml(version: Version, content: string): string {
  return shared.html(version, content);
}
