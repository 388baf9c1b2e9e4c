// The host's action panel: one button per action of the catalog, each with its payload controls.

/**
 * @typedef {{surface: string, publicId: string, deploymentId: number, workbookIds: number[]}} Where
 * @typedef {{type: string, label: string, controls: string, payload: (form: HTMLElement) => Record<string, unknown>}} ActionSpec
 */

/** @param {HTMLElement} form @param {string} id */
const val = (form, id) => /** @type {HTMLInputElement} */ (form.querySelector(`[data-testid="${id}"]`)).value;

/** Default in-embed path the navigate action goes to, per surface. @param {Where} w */
export function otherPath(w) {
  if (w.surface === 'dashboard') {
    return `/embed/dashboard/${w.publicId}/data`;
  }
  if (w.surface === 'app') {
    return `/embed/d/${w.deploymentId}/app/workbook/${w.workbookIds[1] ?? w.workbookIds[0]}`;
  }
  return '/embed/chat/history';
}

/** @param {Where} w @returns {ActionSpec[]} */
export function actionSpecs(w) {
  return [
    {
      type: 'svc:action:set-color-scheme',
      label: 'Set color scheme',
      controls: `<select data-testid="input-scheme"><option>dark</option><option>light</option><option>auto</option></select>`,
      payload: (f) => ({ scheme: val(f, 'input-scheme') }),
    },
    {
      type: 'svc:action:set-theme',
      label: 'Set theme',
      controls: `<input type="color" value="#7c3aed" data-testid="input-primary-color" title="primaryColor">
        <input type="number" value="14" min="0" max="40" data-testid="input-border-radius" title="borderRadius (px)">
        <select data-testid="input-font" title="font"><option>Georgia, serif</option><option>system-ui, sans-serif</option><option>'Courier New', monospace</option></select>`,
      payload: (f) => ({
        primaryColor: val(f, 'input-primary-color'),
        borderRadius: Number(val(f, 'input-border-radius')),
        font: val(f, 'input-font'),
      }),
    },
    {
      type: 'svc:action:set-locale',
      label: 'Set locale',
      controls: `<input value="de-DE" data-testid="input-locale" list="locales"><datalist id="locales"><option>de-DE</option><option>fr</option><option>es-MX</option><option>ja-JP</option><option>en-GB</option></datalist>`,
      payload: (f) => ({ locale: val(f, 'input-locale') }),
    },
    {
      type: 'svc:action:set-timezone',
      label: 'Set time zone',
      controls: `<input value="America/New_York" data-testid="input-timezone" list="zones"><datalist id="zones"><option>America/New_York</option><option>Asia/Tokyo</option><option>Europe/Berlin</option><option>UTC</option><option>+02:00</option></datalist>`,
      payload: (f) => ({ timezone: val(f, 'input-timezone') }),
    },
    {
      type: 'svc:action:set-filter',
      label: 'Set filter',
      controls: `<input value='f_orders.region=["EMEA","APAC"]' data-testid="input-filter">`,
      payload: (f) => ({ filterUrlParameter: val(f, 'input-filter') }),
    },
    {
      type: 'svc:action:navigate',
      label: 'Navigate',
      controls: `<input value="${otherPath(w)}" data-testid="input-path">`,
      payload: (f) => ({ path: val(f, 'input-path') }),
    },
    { type: 'svc:action:refresh', label: 'Refresh', controls: '', payload: () => ({}) },
  ];
}

/** The seven actions a `script=full` session sends right after ready, in this order. @param {Where} w */
export function scriptActions(w) {
  return [
    ['svc:action:set-color-scheme', { scheme: 'dark' }],
    ['svc:action:set-theme', { primaryColor: '#7c3aed', borderRadius: 14, font: 'Georgia, serif' }],
    ['svc:action:set-locale', { locale: 'de-DE' }],
    ['svc:action:set-timezone', { timezone: 'America/New_York' }],
    ['svc:action:set-filter', { filterUrlParameter: 'f_orders.region=["EMEA","APAC"]' }],
    ['svc:action:navigate', { path: otherPath(w) }],
    ['svc:action:refresh', {}],
  ];
}

/**
 * Renders the panel; each button is `data-testid="action-<name>"`, e.g. action-set-color-scheme.
 * @param {HTMLElement} root @param {Where} w @param {(type: string, payload: Record<string, unknown>) => void} send
 */
export function mountActions(root, w, send) {
  for (const spec of actionSpecs(w)) {
    const name = spec.type.replace('svc:action:', '');
    const row = document.createElement('div');
    row.className = 'action';
    row.innerHTML = `<div class="controls">${spec.controls}</div>`;
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = spec.label;
    button.dataset.testid = `action-${name}`;
    button.title = spec.type;
    button.addEventListener('click', () => send(spec.type, spec.payload(row)));
    row.prepend(button);
    root.append(row);
  }
}
