// The walk of one live batch through the panel, from the extension transport to what the UI hears of it: the call
// stacks it runs on, read where it waits for the next frame (the log's `schedule`) and where it reaches the UI (the
// store's `onChange`, which ui/bridge.ts turns into Solid signals; the timeline's rows follow from those, see
// docs/panel-internals.md). The walk enters each panel file once: no file hands the batch on and gets it back.
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.ts';
import { createStore } from '../../src/panel/app/create-store.ts';
import { syntheticSession, TENANT } from '../../src/panel/app/synthetic.ts';
import { createRuntimeTransport, emptyState } from '../../src/panel/link/transports.ts';
import { stamp, type Body, type Wall } from '../../src/shared/channel.ts';
import type { BackgroundToPanel } from '../../src/shared/messages.ts';

const PANEL = join(ROOT, 'src/panel');
/**
 * The event mechanism the log and the view both send through: a hop from the sender to its listeners, as a call
 * is, so it is not a step of the walk.
 */
const HOPS = new Set(['log/emitter.ts']);

/** The panel files of a call stack, outermost first, each run of one file once. */
function panelSteps(stack: string): string[] {
  const steps: string[] = [];
  for (const line of stack.split('\n').slice(1).reverse()) {
    const m = /\((\/[^)]+?):\d+:\d+\)$|at (\/\S+?):\d+:\d+$/.exec(line.trim());
    const file = m ? relative(PANEL, (m[1] ?? m[2]) as string) : null;
    if (!file || file.startsWith('..') || HOPS.has(file)) {
      continue;
    }
    if (steps.at(-1) !== file) {
      steps.push(file);
    }
  }
  return steps;
}

/** A runtime port the test speaks for: what the background would post to the panel. */
function fakePort() {
  const listeners = new Set<(msg: unknown) => void>();
  const port: Wall & { disconnect(): void; onDisconnect: { addListener(fn: () => void): void } } = {
    postMessage: () => {},
    onMessage: { addListener: (fn) => listeners.add(fn), removeListener: (fn) => listeners.delete(fn) },
    disconnect: () => {},
    onDisconnect: { addListener: () => {} },
  };
  const post = (msg: Body<BackgroundToPanel>) => {
    for (const fn of listeners) {
      fn(stamp<BackgroundToPanel>(msg));
    }
  };
  return { port, post };
}

describe('one live batch from the transport to the UI', () => {
  const limit = Error.stackTraceLimit;
  beforeAll(() => {
    Error.stackTraceLimit = 100;
  });
  afterAll(() => {
    Error.stackTraceLimit = limit;
  });

  it('enters each panel file once, from link/transports.ts to the change the UI hears', async () => {
    const frames: Array<() => void> = [];
    let queued = '';
    const store = createStore({
      tabId: 7,
      schedule: (fn) => {
        queued = new Error().stack ?? '';
        frames.push(fn);
      },
    });
    const { port, post } = fakePort();
    const live = store.connectLive(createRuntimeTransport(7, () => port));
    store.attach(live.view);
    await new Promise((r) => setTimeout(r, 0)); // (the transport connects asynchronously)
    post({ type: 'snapshot', state: emptyState(7, { tenantOrigin: TENANT }), records: [] });

    const heard: Array<{ appended?: number; stack: string }> = [];
    store.onChange((c) => heard.push({ appended: c.appended, stack: new Error().stack ?? '' }));
    const records = syntheticSession(20);
    post({ type: 'records', records });
    expect(frames).toHaveLength(1); // queued by the log until the next frame
    for (const fn of frames.splice(0)) {
      fn();
    }

    const batch = heard.find((h) => h.appended !== undefined);
    expect(batch?.appended).toBe(store.timeline.length);
    expect(store.log.count).toBe(records.length);
    // The batch waits in the log for the frame: the walk goes on in the log where it stopped.
    const before = panelSteps(queued),
      after = panelSteps(batch!.stack);
    expect(before.at(-1)).toBe('log/record-log.ts');
    expect(after[0]).toBe('log/record-log.ts');
    const walk = [...before, ...after.slice(1)];

    expect(walk[0]).toBe('link/transports.ts');
    expect(walk.at(-1)).toBe('ui/changes.ts');
    expect(walk.indexOf('log/record-log.ts')).toBeLessThan(walk.indexOf('timeline/timeline-view.ts'));
    expect(
      walk.filter((f, i) => walk.indexOf(f) !== i),
      walk.join(' > '),
    ).toEqual([]);
  });
});
