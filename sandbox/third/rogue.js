// Fault third-origin: a frame of a third origin, nested inside the embed, posts a well-formed event to the host page.
// The host must ignore it: its origin is not the tenant origin.
const params = new URLSearchParams(location.search);
const target = params.get('target');
const surface = params.get('surface') ?? 'dashboard';
if (target) {
  const event = {
    source: 'svc-embed',
    direction: 'event',
    type: 'svc:event:view',
    payload: { surface, path: params.get('path') ?? '/', title: 'posted by a third-origin frame' },
    timestamp: Date.now(),
    surface,
  };
  // window.parent.parent: the host page (through the parent getter, which an inspector can observe).
  window.parent.parent.postMessage(event, target);
  document.body.textContent = `third-origin frame: posted svc:event:view to ${target}`;
}
