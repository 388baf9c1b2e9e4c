/**
 * The capture scripts: built by vite.config.ts as standalone IIFE files (imports inlined, no loader, no `import`)
 * at these paths of both extensions, and registered at run time by scope.ts for the captured sites only.
 */
export const CAPTURE_SCRIPTS = {
  /** Isolated world: the relay between the page and the background. */
  relay: { entry: 'src/capture/relay.ts', file: 'src/capture/relay.js' },
  /** MAIN world, mode `full`: the postMessage hook and the delivery listener. */
  full: { entry: 'src/capture/main-world.ts', file: 'src/capture/main-world.js' },
  /** MAIN world, mode `receive-only`: the delivery listener alone. */
  receiveOnly: { entry: 'src/capture/main-world-receive.ts', file: 'src/capture/main-world-receive.js' },
} as const;
