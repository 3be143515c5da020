/**
 * Sizes the API holds text to, in characters (as JSON Schema counts them).
 * Far beyond what a person writes, and small enough that rendering the
 * Markdown never holds the server up. Kept apart from the schemas so the web
 * app can show them without loading the schema library.
 */

/** The longest card name. */
export const CARD_NAME_MAX_LENGTH = 255;
/** The longest card description. */
export const CARD_CONTENT_MAX_LENGTH = 100_000;
/** The longest comment, after trimming. */
export const COMMENT_MAX_LENGTH = 20_000;
/** The most comments one page of GET /api/data/comment holds, and the page when no `limit` is given. */
export const COMMENT_PAGE_MAX = 100;
