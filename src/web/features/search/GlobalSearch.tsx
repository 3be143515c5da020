/** The search field in the header: results as you type, keyboard navigable. */
export function GlobalSearch() {
  return null;
}
