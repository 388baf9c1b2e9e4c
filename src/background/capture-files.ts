/**
 * The capture scripts: built by vite.config.ts as standalone IIFE files (imports inlined, no loader, no `import`)
 * at these paths of both extensions, and registered at run time by scope.ts for the captured sites only.
 */
export const CAPTURE_SCRIPTS = {
  /** Isolated world, both modes: records deliveries and relays the frame's records to the background. */
  relay: { entry: 'src/capture/relay.ts', file: 'src/capture/relay.js' },
  /** MAIN world, mode `full` only: the postMessage hook. */
  full: { entry: 'src/capture/main-world.ts', file: 'src/capture/main-world.js' },
} as const;
