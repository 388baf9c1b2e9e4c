// A small console on the host page that calls the tenant's platform API cross-origin (CORS) with a bearer token,
// so all four operations can be exercised from the UI.

/**
 * @param {any} config
 * @param {{deploymentId: number, workbookId: number}} d
 */
function operations(config, d) {
  const report = config.reports.find((/** @type {any} */ r) => r.deploymentId === d.deploymentId)?.id ?? 500;
  const notification =
    config.notifications.find((/** @type {any} */ n) => n.deploymentId === d.deploymentId)?.id ?? 900;
  const base = `/api/v1/deployments/${d.deploymentId}`;
  return [
    { label: 'Get workbook', method: 'GET', path: `${base}/workbooks/${d.workbookId}`, body: '' },
    {
      label: 'Move a workspace item',
      method: 'POST',
      path: `${base}/workspace/move`,
      body: { type: 'WORKBOOK', id: d.workbookId, folderId: null },
    },
    {
      label: 'Disconnect a report placement',
      method: 'DELETE',
      path: `${base}/reports/${report}/connect-workbook`,
      body: { placementId: 'pl-2' },
    },
    {
      label: 'Update a notification',
      method: 'PUT',
      path: `${base}/notifications/${notification}`,
      body: {
        scheduleType: 'WEEKLY',
        dayOfWeek: 1,
        hour: 8,
        minute: 30,
        filters: [{ member: 'orders.region', value: 'APAC' }],
      },
    },
  ];
}

/**
 * Calls the tenant API. Resolves to `{status, body}`; `body` is parsed JSON when the response is JSON.
 * @param {string} tenantOrigin @param {string} method @param {string} path @param {string} token @param {string} [body]
 */
export async function callApi(tenantOrigin, method, path, token, body) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (token) {
    headers.Authorization = `Bearer ${token}`;
  }
  if (body) {
    headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(`${tenantOrigin}${path}`, { method, headers, body: body || undefined });
  const text = await res.text();
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, body: parsed };
}

/**
 * @param {HTMLElement} root @param {any} config @param {{deploymentId: number, workbookId: number}} d
 */
export function mountApiConsole(root, config, d) {
  const ops = operations(config, d);
  root.innerHTML = `
    <div class="api-form">
      <label>Operation <select data-testid="api-operation">${ops.map((o, i) => `<option value="${i}">${o.label}</option>`).join('')}</select></label>
      <label>Token <select data-testid="api-token">${config.tokens
        .map((/** @type {any} */ t) => `<option value="${t.token}">${t.token} · ${t.email} (${t.role})</option>`)
        .join('')}</select></label>
      <label class="wide">Request <span class="row"><select data-testid="api-method">${['GET', 'POST', 'PUT', 'DELETE']
        .map((m) => `<option>${m}</option>`)
        .join('')}</select><input data-testid="api-path" spellcheck="false"></span></label>
      <label class="wide">JSON body <textarea data-testid="api-body" rows="3" spellcheck="false"></textarea></label>
      <button class="primary" type="button" data-testid="api-send">Send</button>
    </div>
    <div class="api-out"><span class="badge" data-testid="api-status">no request yet</span><pre data-testid="api-result"></pre></div>`;
  const q = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (root.querySelector(`[data-testid="${id}"]`));
  const pick = () => {
    const op = ops[Number(q('api-operation').value)];
    q('api-method').value = op.method;
    q('api-path').value = op.path;
    q('api-body').value = op.body ? JSON.stringify(op.body, null, 1).replace(/\n\s*/g, ' ') : '';
  };
  q('api-operation').addEventListener('change', pick);
  pick();
  q('api-send').addEventListener('click', async () => {
    const out = q('api-status');
    out.textContent = '…';
    try {
      const { status, body } = await callApi(
        config.tenantOrigin,
        q('api-method').value,
        q('api-path').value,
        q('api-token').value,
        q('api-body').value.trim(),
      );
      out.textContent = `HTTP ${status}`;
      out.className = `badge ${status < 300 ? 'ok' : 'bad'}`;
      q('api-result').textContent = typeof body === 'string' ? body : JSON.stringify(body, null, 2);
    } catch (err) {
      out.textContent = 'network error';
      out.className = 'badge bad';
      q('api-result').textContent = String(err);
    }
  });
}
