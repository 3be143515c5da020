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
/** The most areas a board template holds. */
export const TEMPLATE_MAX_AREAS = 50;
/** The most cards a board template holds. */
export const TEMPLATE_MAX_CARDS = 500;
/** The largest template, as stored JSON (its card texts mostly), in characters. */
export const TEMPLATE_MAX_CHARS = 2_000_000;
/** The most templates one account keeps. */
export const TEMPLATES_PER_ACCOUNT = 100;
/** The longest template name. */
export const TEMPLATE_NAME_MAX_LENGTH = 255;
