// What the client leaves on `window` for the browser tests to read (never read by the client itself).
interface Window {
  /** Every UI string key the page asked for in a language that lacks it (core/i18n.js). */
  __i18nMissing: Set<string>;
  /** The open game page's state and live stream (pages/game.js). */
  __tabletop?: { page: object; live: { readonly last: number } };
}
