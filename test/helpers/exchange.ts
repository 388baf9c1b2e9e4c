// What the capture tests' pages exchange: an embed that answers each action, and a record's message path.

/**
 * An embed page answering each svc-embed action with an event to its host (`{{HOST}}`): the action's message, as
 * `svc:event:navigated`. `ready`: it first says a valid `ready`. `quiet`: the path of an action it does not answer.
 */
export function answeringEmbed(opts: { ready?: boolean; quiet?: string } = {}): string {
  const ready = opts.ready
    ? `const payload = { embedTenant: 'acme', deploymentId: 42, mode: 'signed', surface: 'dashboard', publicId: 'dash01' };
  parent.postMessage({ source: 'svc-embed', direction: 'event', type: 'svc:event:ready', surface: 'dashboard', payload, timestamp: Date.now() }, '{{HOST}}');
  `
    : '';
  const quiet = opts.quiet ? ` && e.data.payload.path !== ${JSON.stringify(opts.quiet)}` : '';
  return `<!doctype html><script>
  ${ready}addEventListener('message', (e) => {
    if (e.data && e.data.source === 'svc-embed'${quiet}) parent.postMessage({ ...e.data, direction: 'event', type: 'svc:event:navigated' }, '{{HOST}}');
  });
</script>`;
}

/** The path in a record's message payload ('' when it has none). */
export const pathOf = (r: { data: unknown }): string => (r.data as any)?.payload?.path ?? '';
