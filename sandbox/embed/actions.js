// Checks and effects of the seven host actions. A check returns a reason to ignore the action, or null.
import { isIanaTimeZone } from '/static/shared/timezone.js';
import { canonicalLocale } from './i18n.js';

/** @typedef {import('./main.js').Ctx} Ctx */

/** @param {unknown} v @returns {v is Record<string, any>} */
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `f_<semantic_view>.<dimension>=<JSON>` → `{member, values}`; a string says why it is unusable.
 * A JSON null or [] clears the filter; a scalar is one value; an array is a set of values.
 * @param {unknown} text
 * @returns {{member: string, values: (string|number|boolean)[]} | string}
 */
export function parseFilterParameter(text) {
  if (typeof text !== 'string') {
    return 'filterUrlParameter must be a string';
  }
  const m = /^f_([A-Za-z_]\w*)\.([A-Za-z_]\w*)=(.*)$/s.exec(text.trim());
  if (!m) {
    return `"${text.slice(0, 60)}" is not of the form f_<semantic_view>.<dimension>=<JSON>`;
  }
  let value;
  try {
    value = JSON.parse(m[3]);
  } catch {
    try {
      value = JSON.parse(decodeURIComponent(m[3]));
    } catch {
      return `the value of ${m[1]}.${m[2]} is not JSON: ${m[3].slice(0, 40)}`;
    }
  }
  const scalar = (/** @type {unknown} */ x) => ['string', 'number', 'boolean'].includes(typeof x);
  if (value === null) {
    return { member: `${m[1]}.${m[2]}`, values: [] };
  }
  if (scalar(value)) {
    return { member: `${m[1]}.${m[2]}`, values: [value] };
  }
  if (Array.isArray(value) && value.every(scalar)) {
    return { member: `${m[1]}.${m[2]}`, values: value };
  }
  return `the value of ${m[1]}.${m[2]} must be a JSON scalar or an array of scalars`;
}

/** @param {unknown} color */
const isColor = (color) => typeof color === 'string' && CSS.supports('color', color);

/** @type {Record<string, (p: any) => string | null>} */
const CHECKS = {
  'svc:action:set-color-scheme': (p) =>
    isObject(p) && ['light', 'dark', 'auto'].includes(p.scheme)
      ? null
      : 'payload.scheme must be "light", "dark" or "auto"',
  'svc:action:set-theme': (p) => {
    if (!isObject(p)) {
      return 'payload must be an embedTheme object';
    }
    if (p.primaryColor !== undefined && !isColor(p.primaryColor)) {
      return 'payload.primaryColor is not a CSS color';
    }
    if (
      p.borderRadius !== undefined &&
      !(typeof p.borderRadius === 'number' && p.borderRadius >= 0) &&
      !(typeof p.borderRadius === 'string' && CSS.supports('border-radius', p.borderRadius))
    ) {
      return 'payload.borderRadius must be a number of pixels or a CSS length';
    }
    if (p.font !== undefined && typeof p.font !== 'string') {
      return 'payload.font must be a string';
    }
    return null;
  },
  'svc:action:set-locale': (p) =>
    isObject(p) && canonicalLocale(p.locale) ? null : 'payload.locale is not a locale code',
  'svc:action:set-timezone': (p) =>
    isObject(p) && isIanaTimeZone(p.timezone)
      ? null
      : `payload.timezone ${JSON.stringify(p?.timezone)} is not an IANA time zone name (bare offsets are ignored)`,
  'svc:action:set-filter': (p) => {
    if (!isObject(p)) {
      return 'payload must be {filterUrlParameter}';
    }
    const f = parseFilterParameter(p.filterUrlParameter);
    return typeof f === 'string' ? f : null;
  },
  'svc:action:navigate': (p) =>
    isObject(p) && typeof p.path === 'string' && p.path.startsWith('/')
      ? null
      : 'payload.path must be a string starting with "/"',
  'svc:action:refresh': () => null,
};

/** @param {string} type @param {unknown} payload */
export function checkAction(type, payload) {
  return CHECKS[type]?.(payload) ?? null;
}

/** Applies the color scheme setting; `auto` follows prefers-color-scheme. @param {Ctx} ctx */
export function applyScheme(ctx) {
  const s = ctx.state;
  s.scheme =
    s.schemeSetting === 'auto'
      ? matchMedia('(prefers-color-scheme: dark)').matches
        ? 'dark'
        : 'light'
      : s.schemeSetting;
  document.documentElement.dataset.scheme = s.scheme;
  document.documentElement.dataset.schemeSetting = s.schemeSetting;
}

/** @param {Ctx} ctx */
export function applyTheme(ctx) {
  const t = ctx.state.theme;
  const style = document.documentElement.style;
  const set = (/** @type {string} */ name, /** @type {unknown} */ v) =>
    v === undefined ? style.removeProperty(name) : style.setProperty(name, String(v));
  set('--primary', t.primaryColor);
  set('--radius', typeof t.borderRadius === 'number' ? `${t.borderRadius}px` : t.borderRadius);
  set('--font', t.font);
}

/** @param {Ctx} ctx @param {string} type @param {any} p */
export function applyAction(ctx, type, p) {
  const s = ctx.state;
  switch (type) {
    case 'svc:action:set-color-scheme':
      s.schemeSetting = p.scheme;
      applyScheme(ctx);
      break;
    case 'svc:action:set-theme':
      s.theme = { ...p };
      applyTheme(ctx);
      break;
    case 'svc:action:set-locale':
      s.locale = /** @type {string} */ (canonicalLocale(p.locale));
      document.documentElement.lang = s.locale;
      document.documentElement.dataset.locale = s.locale;
      ctx.render();
      break;
    case 'svc:action:set-timezone':
      s.timezoneFromAction = p.timezone;
      ctx.updateTimezone();
      ctx.surface.rerun('timezone');
      break;
    case 'svc:action:set-filter': {
      const f = /** @type {{member: string, values: any[]}} */ (parseFilterParameter(p.filterUrlParameter));
      if (f.values.length) {
        s.filters[f.member] = f.values;
      } else {
        delete s.filters[f.member];
      }
      ctx.surface.rerun('filter');
      break;
    }
    case 'svc:action:navigate':
      ctx.go(p.path);
      break;
    case 'svc:action:refresh':
      s.refreshCount++;
      ctx.surface.rerun('refresh');
      break;
  }
}
