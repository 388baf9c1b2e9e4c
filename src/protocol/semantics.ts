/** Semantic checks of action payload values (pure; memoised where the check is costly). */

const OFFSET = /^(?:(?:UTC|GMT|Z)\s*)?[+\-−]\s*\d{1,2}(?::?\d{2})?$|^(?:UTC|GMT)\s*[+\-−]?\s*\d{0,2}(?::?\d{2})?$/i;
const tzCache = new Map<string, { rule: string; message: string } | null>();

/** `set-timezone`: an IANA name. Bare UTC offsets are ignored by the embed (error); unknown names are warnings. */
export function checkTimezone(tz: string): { rule: string; message: string } | null {
  const hit = tzCache.get(tz);
  if (hit !== undefined) {
    return hit;
  }
  let out: { rule: string; message: string } | null = null;
  const t = tz.trim();
  if (t === '') {
    out = { rule: 'action.timezone', message: 'timezone is empty; expected an IANA name such as "Europe/Berlin"' };
  } else if (OFFSET.test(t) && t !== 'UTC' && t !== 'GMT') {
    out = {
      rule: 'action.timezone',
      message: `"${tz}" is a bare UTC offset, which the embed ignores; use an IANA name such as "Etc/GMT-2" or "Europe/Berlin"`,
    };
  } else if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(t)) {
    out = { rule: 'action.timezone', message: `"${tz}" is not an IANA time zone name` };
  } else {
    try {
      new Intl.DateTimeFormat('en', { timeZone: t });
    } catch {
      out = {
        rule: 'action.timezone-unknown',
        message: `"${tz}" is not a time zone this engine knows; check the IANA name`,
      };
    }
  }
  if (tzCache.size > 500) {
    tzCache.clear();
  }
  tzCache.set(tz, out);
  return out;
}

const FILTER = /^f_([^.=\s]+)\.([^=\s]+)=([\s\S]*)$/;
const filterCache = new Map<string, string | null>();
/** `set-filter`: `f_<semantic_view>.<dimension>=<JSON>` with JSON that parses. Returns a message, or null. */
export function checkFilter(value: string): string | null {
  const hit = filterCache.get(value);
  if (hit !== undefined) {
    return hit;
  }
  const out = filterProblem(value);
  if (filterCache.size > 500) {
    filterCache.clear();
  }
  filterCache.set(value, out);
  return out;
}

function filterProblem(value: string): string | null {
  const m = FILTER.exec(value);
  if (!m) {
    return `"${value.slice(0, 80)}" is not of the form f_<semantic_view>.<dimension>=<JSON>`;
  }
  if (m[3] === '') {
    return 'the filter has no JSON value after "="';
  }
  try {
    JSON.parse(m[3]);
  } catch (e) {
    return `the filter value is not JSON: ${(e as Error).message}`;
  }
  return null;
}

const localeCache = new Map<string, string | null>();
/** `set-locale`: a well-formed BCP 47 language tag ("en", "en-US", "zh-Hant-TW"). Returns a message, or null. */
export function checkLocale(value: string): string | null {
  const hit = localeCache.get(value);
  if (hit !== undefined) {
    return hit;
  }
  let out: string | null = null;
  if (value.includes('_')) {
    out = `"${value}" uses "_"; a language tag uses "-" (e.g. "${value.replace(/_/g, '-')}")`;
  } else {
    try {
      Intl.getCanonicalLocales(value);
    } catch {
      out = `"${value}" is not a well-formed language tag (e.g. "de", "en-GB")`;
    }
  }
  if (localeCache.size > 500) {
    localeCache.clear();
  }
  localeCache.set(value, out);
  return out;
}
