import { describe, expect, it } from 'vitest';
import { checklistOf } from './checklist.js';
import { renderMarkdown } from './markdown.js';

/** Markdown (and HTML smuggled into it) that tries to run script once rendered. */
const XSS_PAYLOADS: readonly string[] = [
  // Raw HTML: must come out as text.
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" onerror="alert(1)"/>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href=javascript&colon;alert(1)>x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<style>body{background:url(javascript:alert(1))}</style>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<input autofocus onfocus=alert(1)>',
  '<textarea onfocus=alert(1) autofocus></textarea>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<details open ontoggle=alert(1)>',
  '<body onload=alert(1)>',
  '<video><source onerror=alert(1)></video>',
  '<marquee onstart=alert(1)>x</marquee>',
  '<!-- --><script>alert(1)</script>',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<?xml-stylesheet href="javascript:alert(1)"?>',
  'text <b onmouseover=alert(1)>bold</b>',
  // Entities that decode to markup.
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&#60;script&#62;alert(1)&#60;/script&#62;',
  '&#x3C;img src=x onerror=alert(1)&#x3E;',
  // Markdown links and images with bad addresses, plain and obfuscated.
  '[x](javascript:alert(1))',
  '[x](JAVASCRIPT:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](java&#x09;script:alert(1))',
  '[x](java&#9;script:alert(1))',
  '[x](java&#x0A;script:alert(1))',
  '[x](javascript&colon;alert(1))',
  '[x](&#106;avascript:alert(1))',
  '[x](&#x6A;&#x61;vascript:alert(1))',
  '[x](&Tab;javascript:alert(1))',
  '[x](  javascript:alert(1))',
  '[x](\njavascript:alert(1))',
  '[x](<javascript:alert(1)>)',
  '[x](< javascript:alert(1)>)',
  '[x](<java\tscript:alert(1)>)',
  '[x](java\u0000script:alert(1))',
  '[x](\u0001javascript:alert(1))',
  '[x](\u200bjavascript:alert(1))',
  '[x](%6Aavascript:alert(1))',
  '[x](javascript:alert(1) "title")',
  '[x](vbscript:msgbox(1))',
  '[x](VBScript:msgbox(1))',
  '[x](file:///etc/passwd)',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[x](data:text/html,<script>alert(1)</script>)',
  '[x](DATA:text/html,alert(1))',
  '![x](javascript:alert(1))',
  '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '![x](data:image/png;base64,iVBORw0KGgo=)',
  '![x](vbscript:alert(1))',
  '[![x](javascript:alert(1))](javascript:alert(2))',
  '[<img src=x onerror=alert(1)>](https://example.org)',
  // Autolinks and linkified text.
  '<javascript:alert(1)>',
  '<JAVASCRIPT:alert(1)>',
  '<vbscript:alert(1)>',
  '<data:text/html,alert(1)>',
  '<https://example.org/"onmouseover="alert(1)>',
  'javascript:alert(1)',
  'see http://example.org/"><script>alert(1)</script>',
  'ftp://example.org/file and //evil.example',
  // Breaking out of attribute quotes.
  '[x](https://example.org "t\\" onmouseover=\\"alert(1)")',
  '[x](https://example.org \'a" onclick="alert(1)\')',
  '[x](https://example.org" onclick="alert(1))',
  '![" onerror="alert(1)](https://example.org/x.png)',
  '![x](https://example.org/x.png "\\" onerror=\\"alert(1)")',
  '```" onmouseover="alert(1)\ncode\n```',
  // Reference-style links with bad addresses.
  '[x][bad]\n\n[bad]: javascript:alert(1)',
  '[bad]\n\n[bad]: <javascript:alert(1)> "t"',
  '[x][bad]\n\n[bad]: java&#x09;script:alert(1)',
  '![x][img]\n\n[img]: data:text/html,alert(1)',
  // Inside code, lists and checklists.
  '`<script>alert(1)</script>`',
  '```html\n<script>alert(1)</script>\n```',
  '    <iframe src=javascript:alert(1)>',
  '- [ ] <img src=x onerror=alert(1)>',
  '- [x] [x](javascript:alert(1))',
  '> <svg/onload=alert(1)>',
  '| a | b |\n|:--|--:|\n| <script>x</script> | [x](javascript:alert(1)) |',
];

// ---------------------------------------------------------------------------
// A strict check without an HTML parser. markdown-it escapes every `<`, `>`
// and `"` of text, so each `<` in the output must open a well-formed tag of
// the allow list, whose attributes are all of the allow list, double-quoted.

/** Tags no output may contain, whatever the allow list below says. */
const DENIED_TAGS = new Set(
  (
    'script iframe frame frameset object embed applet style link meta base form button textarea select option ' +
    'svg math video audio source track template noscript xmp plaintext title body html head marquee isindex keygen ' +
    'portal dialog details animate set use foreignobject image xml'
  ).split(' '),
);
const ALLOWED_TAGS = new Set(
  'p br hr a img em strong s code pre blockquote ul ol li input h1 h2 h3 h4 h5 h6 table thead tbody tr th td'.split(' '),
);
const ALLOWED_ATTRIBUTES = new Set('href src alt title rel target class type disabled checked start style'.split(' '));
const TAG = /^<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z][a-zA-Z0-9-]*(?:="[^"<>]*")?)*)\s*\/?>/;
const ATTRIBUTE = /\s+([a-zA-Z][a-zA-Z0-9-]*)(?:="([^"]*)")?/g;
const SAFE_PREFIX = /^(?:https?:|mailto:|\/|#)/;
const NAMED: Record<string, string> = { amp: '&', quot: '"', lt: '<', gt: '>', apos: "'", colon: ':', tab: '\t', newline: '\n' };

/** One pass of character-reference decoding, as a browser does for an attribute value; unknown names fail. */
function decodeEntities(value: string): string {
  return value.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);?/g, (_, ref: string) => {
    if (ref.startsWith('#x') || ref.startsWith('#X')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    const named = NAMED[ref.toLowerCase()];
    if (named === undefined) throw new Error(`unexpected entity &${ref}; in an address`);
    return named;
  });
}

/** Whitespace and control characters, which browsers drop or ignore inside an address. */
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u0020\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\u2060\ufeff\s]/g;

/** What a browser would make of an `href`/`src`: decoded, without whitespace and control characters, lower-cased. */
function plainAddress(value: string): string {
  return decodeEntities(value).replace(INVISIBLE, '').toLowerCase();
}

/** Throws, naming the problem, unless `html` holds nothing that can run. */
function assertInert(html: string): void {
  const lower = html.toLowerCase();
  if (lower.includes('<script')) throw new Error('contains <script');
  if (lower.includes('<iframe')) throw new Error('contains <iframe');
  const raw = /<\s*\/?\s*([a-z][a-z0-9]*)/g;
  for (const [, name] of lower.matchAll(raw)) if (DENIED_TAGS.has(name!)) throw new Error(`contains a <${name}> tag`);

  let at = 0;
  while ((at = html.indexOf('<', at)) !== -1) {
    const tag = TAG.exec(html.slice(at));
    if (!tag) throw new Error(`a "<" that is not a well-formed tag: ${html.slice(at, at + 40)}`);
    const [whole, closing, rawName, attributes] = tag;
    const name = rawName!.toLowerCase();
    if (!ALLOWED_TAGS.has(name)) throw new Error(`tag <${name}> is not allowed`);
    if (closing && attributes) throw new Error(`closing tag with attributes: ${whole}`);
    // Outside the quoted values (where markdown-it's escaped text may say anything), no ` on…=` at all.
    if (/\son[a-z]*\s*=/i.test(whole.replace(/"[^"]*"/g, '""'))) throw new Error(`event handler attribute in ${whole}`);
    for (const [, attrName, value = ''] of attributes!.matchAll(ATTRIBUTE)) {
      const attr = attrName!.toLowerCase();
      if (attr.startsWith('on')) throw new Error(`event handler attribute ${attr} in ${whole}`);
      if (!ALLOWED_ATTRIBUTES.has(attr)) throw new Error(`attribute ${attr} is not allowed in ${whole}`);
      if ((attr === 'href' || attr === 'src') && !SAFE_PREFIX.test(plainAddress(value)))
        throw new Error(`unsafe ${attr}="${value}"`);
      if (attr === 'style' && !/^text-align:(?:left|right|center)$/.test(value)) throw new Error(`style="${value}"`);
    }
    at += whole.length;
  }
}

describe('the inertness check itself', () => {
  it.each([
    '<script>alert(1)</script>',
    '<SCRIPT>alert(1)</SCRIPT>',
    '<iframe src="https://x"></iframe>',
    '<img src="x" onerror="alert(1)">',
    '<p onclick="alert(1)">x</p>',
    '<a href="javascript:alert(1)">x</a>',
    '<a href="JAVASCRIPT:alert(1)">x</a>',
    '<a href=" javascript:alert(1)">x</a>',
    '<a href="java&#x09;script:alert(1)">x</a>',
    '<a href="java&Tab;script:alert(1)">x</a>',
    '<a href="&#106;avascript:alert(1)">x</a>',
    '<a href="javascript&colon;alert(1)">x</a>',
    '<img src="data:image/png;base64,AAAA">',
    '<a href="vbscript:x">x</a>',
    '<a href="page.html">x</a>',
    '<a href=javascript:alert(1)>x</a>',
    '<div>x</div>',
    '<p style="color:red">x</p>',
    '<math>x</math>',
    '<p>a < b</p>',
  ])('refuses %s', (html) => {
    expect(() => assertInert(html)).toThrow();
  });

  it('accepts what the renderer makes of safe Markdown', () => {
    expect(() =>
      assertInert(
        '<p><a href="https://x.org/?a=1&amp;b=2" title="t" rel="noopener noreferrer nofollow" target="_blank">x</a> ' +
          '<img src="/api/images/a.png" alt="a"><br>\n<a href="mailto:a@b.co">m</a> <a href="#top">t</a></p>',
      ),
    ).not.toThrow();
  });
});

describe('renderMarkdown against XSS', () => {
  it('has a corpus of at least 30 payloads', () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(XSS_PAYLOADS.map((payload) => [JSON.stringify(payload), payload]))('renders %s inert', (_, payload) => {
    const html = renderMarkdown(payload);
    expect(() => assertInert(html)).not.toThrow();
  });

  it('keeps refused links and raw HTML as visible text', () => {
    expect(renderMarkdown('[x](javascript:alert(1))')).toBe('<p>[x](javascript:alert(1))</p>\n');
    expect(renderMarkdown('<b onclick="x()">hi</b>')).toBe('<p>&lt;b onclick=&quot;x()&quot;&gt;hi&lt;/b&gt;</p>\n');
    expect(renderMarkdown('<javascript:alert(1)>')).toBe('<p>&lt;javascript:alert(1)&gt;</p>\n');
    expect(renderMarkdown('![i](data:image/png;base64,AAAA)')).toBe('<p>![i](data:image/png;base64,AAAA)</p>\n');
  });

  it('escapes quotes in titles, alt text and code info strings', () => {
    expect(renderMarkdown('[x](https://example.org "a\\" onclick=\\"b")')).toContain('title="a&quot; onclick=&quot;b"');
    expect(renderMarkdown('![a" onerror="b](https://example.org/i.png)')).toContain('alt="a&quot; onerror=&quot;b"');
    expect(renderMarkdown('```" onmouseover="x\ncode\n```')).toContain('class="language-&quot;"');
  });
});

/** Markdown whose links or images would make the viewer's browser call this instance's API. */
const INSTANCE_ORIGIN = 'https://tavla.example';
const API_PAYLOADS: readonly string[] = [
  '![x](/api/data/export?boardId=1)',
  '![x](/api/auth/sign-out)',
  '![x](/API/data/export)',
  '![x](/api%2Fdata/export)',
  '![x](/%61pi/data/export)',
  '![x](/./api/data/export)',
  '![x](/x/../api/data/export)',
  '![x](/%2e%2e/api/data/export)',
  '![x](/api/data/image/0123456789abcdef0123456789abcdef/../../export)',
  '![x](//tavla.example/api/data/export)',
  '![x](/\\tavla.example/api/data/export)',
  '![x](\\api\\data\\export)',
  '![x](../api/data/export)',
  '![x](api/data/export)',
  '![x](http:/api/data/export)',
  '![x](https:api/data/export)',
  '![x](https://tavla.example/api/data/export)',
  '![x](HTTPS://TAVLA.EXAMPLE/api/data/export)',
  '![x](http://tavla.example:8080/api/data/export)',
  '![x](https://tavla.example/board/1)',
  '![x](<https://tavla.example/api/data/export>)',
  '![x](/api/data/attachment?id=1)',
  '![x]( /api/data/export)',
  '![x](/api/data/export "t")',
  '![x][r]\n\n[r]: /api/data/export',
  '[x](/api/data/export?boardId=1)',
  '[x](/api/auth/sign-out)',
  '[x](/%61pi/data/export)',
  '[x](/%2561pi/data/export)',
  '[x](https://tavla.example/api/data/export)',
  '[x](https://tavla.example/%61pi/data/export)',
  '[x][r]\n\n[r]: https://tavla.example/api/data/export',
  '<https://tavla.example/api/data/export>',
  'see https://tavla.example/api/data/export',
  '[![x](/api/data/export)](/api/data/export)',
];

/** Every address in `html` that a browser at the instance would send to its API, other than its pictures. */
function apiAddresses(html: string): string[] {
  const found: string[] = [];
  for (const [, , value] of html.matchAll(/\s(href|src)="([^"]*)"/g)) {
    const url = new URL(decodeEntities(value!), `${INSTANCE_ORIGIN}/board/1`);
    if (url.hostname !== 'tavla.example') continue;
    let path = url.pathname;
    for (let i = 0; i < 3; i++) path = decodeURIComponent(path);
    if (!path.toLowerCase().startsWith('/api')) continue;
    if (/^\/api\/data\/(image|avatar)\/[0-9a-f]{32}(\.[a-z0-9]+)?$/.test(url.pathname)) continue;
    found.push(value!);
  }
  return found;
}

describe('renderMarkdown against calls to the instance', () => {
  it.each(API_PAYLOADS.map((payload) => [JSON.stringify(payload), payload]))('keeps %s off the API', (_, payload) => {
    for (const origin of [undefined, INSTANCE_ORIGIN]) {
      const html = renderMarkdown(payload, origin);
      expect(() => assertInert(html)).not.toThrow();
      // Without the instance's address a full address of it cannot be told apart from any other.
      if (origin !== undefined || !/https?:\/\/tavla/i.test(payload)) expect([origin, apiAddresses(html)]).toEqual([origin, []]);
    }
  });

  it('shows no picture but its own from the instance, and keeps the refused one as text', () => {
    expect(renderMarkdown('![x](/api/data/export?boardId=1)')).toBe('<p>![x](/api/data/export?boardId=1)</p>\n');
    expect(renderMarkdown('![x](/board/1)')).toBe('<p>![x](/board/1)</p>\n');
    expect(renderMarkdown('![x](#top)')).toBe('<p>![x](#top)</p>\n');
    expect(renderMarkdown('![x](https://tavla.example/board/1)', INSTANCE_ORIGIN)).toBe(
      '<p>![x](https://tavla.example/board/1)</p>\n',
    );
    expect(renderMarkdown('[x](/api/data/export)')).toBe('<p>[x](/api/data/export)</p>\n');
  });

  it('links to the web app and to its pictures, by path or by full address', () => {
    const rel = 'rel="noopener noreferrer nofollow" target="_blank"';
    expect(renderMarkdown('[b](/board/1) [p](/api/data/image/0123456789abcdef0123456789abcdef.png)')).toBe(
      `<p><a href="/board/1" ${rel}>b</a> <a href="/api/data/image/0123456789abcdef0123456789abcdef.png" ${rel}>p</a></p>\n`,
    );
    expect(renderMarkdown('https://tavla.example/board/1', INSTANCE_ORIGIN)).toBe(
      `<p><a href="https://tavla.example/board/1" ${rel}>https://tavla.example/board/1</a></p>\n`,
    );
    expect(renderMarkdown('![a](https://tavla.example/api/data/avatar/0123456789abcdef0123456789abcdef)', INSTANCE_ORIGIN)).toBe(
      '<p><img src="https://tavla.example/api/data/avatar/0123456789abcdef0123456789abcdef" alt="a"></p>\n',
    );
  });
});

describe('renderMarkdown output', () => {
  it('renders emphasis, line breaks and headings', () => {
    expect(renderMarkdown('**bold** and _em_ and ~~gone~~')).toBe(
      '<p><strong>bold</strong> and <em>em</em> and <s>gone</s></p>\n',
    );
    expect(renderMarkdown('one\ntwo')).toBe('<p>one<br>\ntwo</p>\n');
    expect(renderMarkdown('# Title')).toBe('<h1>Title</h1>\n');
  });

  it('opens links in a new tab without referrer or opener', () => {
    const rel = 'rel="noopener noreferrer nofollow" target="_blank"';
    expect(renderMarkdown('[docs](https://example.org/docs "Docs")')).toBe(
      `<p><a href="https://example.org/docs" title="Docs" ${rel}>docs</a></p>\n`,
    );
    expect(renderMarkdown('see https://example.org/x.')).toBe(
      `<p>see <a href="https://example.org/x" ${rel}>https://example.org/x</a>.</p>\n`,
    );
    expect(renderMarkdown('mail a@example.org')).toBe(`<p>mail <a href="mailto:a@example.org" ${rel}>a@example.org</a></p>\n`);
    expect(renderMarkdown('<https://example.org>')).toBe(`<p><a href="https://example.org" ${rel}>https://example.org</a></p>\n`);
    expect(renderMarkdown('[card](/b/1/c/2) [top](#top)')).toBe(
      `<p><a href="/b/1/c/2" ${rel}>card</a> <a href="#top" ${rel}>top</a></p>\n`,
    );
    expect(renderMarkdown('[r][ref]\n\n[ref]: https://example.org/r')).toBe(
      `<p><a href="https://example.org/r" ${rel}>r</a></p>\n`,
    );
  });

  it('renders images with safe addresses', () => {
    expect(renderMarkdown('![logo](https://example.org/logo.png)')).toBe(
      '<p><img src="https://example.org/logo.png" alt="logo"></p>\n',
    );
    expect(renderMarkdown('![pasted](/api/data/image/0123456789abcdef0123456789abcdef.png)')).toBe(
      '<p><img src="/api/data/image/0123456789abcdef0123456789abcdef.png" alt="pasted"></p>\n',
    );
  });

  it('renders checklist items as disabled checkboxes inside the list item', () => {
    const source = 'Steps\n- [ ] first\n- [x] second\n* [X] third\n- [ ]\n- plain\n- [x](https://example.org)\n1. [ ] numbered';
    expect(renderMarkdown(source)).toBe(
      '<p>Steps</p>\n' +
        '<ul>\n' +
        '<li class="task-list-item"><input type="checkbox" disabled> first</li>\n' +
        '<li class="task-list-item"><input type="checkbox" disabled checked> second</li>\n' +
        '</ul>\n' +
        '<ul>\n' +
        '<li class="task-list-item"><input type="checkbox" disabled checked> third</li>\n' +
        '</ul>\n' +
        '<ul>\n' +
        '<li class="task-list-item"><input type="checkbox" disabled> </li>\n' +
        '<li>plain</li>\n' +
        '<li><a href="https://example.org" rel="noopener noreferrer nofollow" target="_blank">x</a></li>\n' +
        '</ul>\n' +
        '<ol>\n<li>[ ] numbered</li>\n</ol>\n',
    );
  });

  it('renders nested and loose checklists, as many boxes as checklistOf counts', () => {
    const source = '- [ ] outer\n  - [x] inner **bold**\n\n- [x] loose';
    const html = renderMarkdown(source);
    expect(html).toContain(
      '<li class="task-list-item"><input type="checkbox" disabled checked> inner <strong>bold</strong></li>',
    );
    expect(html).toContain('<li class="task-list-item">\n<p><input type="checkbox" disabled checked> loose</p>\n</li>');
    const boxes = html.match(/<input type="checkbox" disabled/g) ?? [];
    const checked = html.match(/<input type="checkbox" disabled checked>/g) ?? [];
    expect({ done: checked.length, total: boxes.length }).toEqual(checklistOf(source));
    expect(() => assertInert(html)).not.toThrow();
  });

  it('renders the same Markdown the same way every time', () => {
    const source = '- [x] done [link](https://example.org)';
    expect(renderMarkdown(source)).toBe(renderMarkdown(source));
  });
});
