/**
 * The capture scripts: built by vite.config.ts as standalone IIFE files (imports inlined, no loader, no `import`)
 * at these paths of both extensions, and registered at run time by scope.ts for the captured sites only.
 */
export const CAPTURE_SCRIPTS = {
  /** Isolated world, receive-only sites: records deliveries and relays the frame's records to the background. */
  relay: { entry: 'src/capture/relay-receive-only.ts', file: 'src/capture/relay.js' },
  /** Isolated world, full-mode sites: the relay, with its private channel to the MAIN-world hook. */
  relayFull: { entry: 'src/capture/relay-full.ts', file: 'src/capture/relay-full.js' },
  /** MAIN world, mode `full` only: the postMessage hook. */
  full: { entry: 'src/capture/main-world.ts', file: 'src/capture/main-world.js' },
} as const;
