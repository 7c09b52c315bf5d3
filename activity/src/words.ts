// The app's words: the bot's own catalogues (en, cs, es), sent by the backend as templates
// whose {placeholders} are filled here. Nothing in this app is written in one language.

export type Params = Record<string, string | number>;

export class Words {
  constructor(
    private readonly table: Record<string, string>,
    readonly locale: string,
  ) {}

  /** The text of `key` with its placeholders filled; the key itself when it is missing, so a
   * missing word shows up (and the tests catch it) instead of leaving a blank. */
  t(key: string, params: Params = {}): string {
    const text = this.table[key];
    if (text === undefined) return key;
    return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
      name in params ? String(params[name]) : whole,
    );
  }

  /** "Ana, Bob and Eva" in the user's language (the browser's CLDR data, nothing fetched). */
  list(items: string[]): string {
    return new Intl.ListFormat(this.locale, {type: 'conjunction'}).format(items);
  }

  /** A signed rating change as the bot writes it: +12, −8 (a true minus sign), ±0. */
  signed(delta: number): string {
    const figure = new Intl.NumberFormat(this.locale, {maximumFractionDigits: 0}).format(Math.abs(delta));
    const rounded = Math.round(delta);
    if (rounded === 0) return `±${figure}`;
    return rounded > 0 ? `+${figure}` : `\u2212${figure}`;
  }
}

/** The supported language closest to a browser or Discord locale ("es-419" → "es"). */
export function pickLocale(wanted: string | undefined, supported: string[]): string {
  const language = (wanted ?? '').toLowerCase().split(/[-_]/)[0];
  return supported.includes(language) ? language : supported.includes('en') ? 'en' : supported[0];
}
