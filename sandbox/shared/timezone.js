// IANA time zone check shared by the mock API (Node) and the embed emulator (browser).

/**
 * True for an IANA time zone name such as "Europe/Berlin" or "UTC". Bare UTC offsets ("+02:00", "UTC+2", "GMT-5")
 * are refused even where Intl would accept them: the spec says they are ignored.
 * @param {unknown} tz
 */
export function isIanaTimeZone(tz) {
  if (typeof tz !== 'string' || !tz || /^[+-]\d|^(UTC|GMT)\s*[+-]\s*\d/i.test(tz.trim())) {
    return false;
  }
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
