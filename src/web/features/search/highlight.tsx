import type { ReactNode } from 'react';

/** The words of a query, as the server reads them: letters and digits only. */
export function queryTerms(query: string): string[] {
  return query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `text` with every occurrence of the query's words wrapped in <mark>. */
export function highlight(text: string, query: string): ReactNode {
  const terms = [...new Set(queryTerms(query))].sort((a, b) => b.length - a.length);
  if (terms.length === 0) return text;
  const pattern = new RegExp(`(${terms.map(escapeRegExp).join('|')})`, 'giu');
  const parts = text.split(pattern);
  if (parts.length === 1) return text;
  // split() with one capturing group: the matches sit at the odd indexes.
  return parts.map((part, index) =>
    index % 2 === 1 ? (
      <mark key={index} className="search-mark">
        {part}
      </mark>
    ) : (
      part
    ),
  );
}
