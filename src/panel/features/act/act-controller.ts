/**
 * The state the "act" features share (composer, replay, export, import): which drawer is open, the draft to
 * seed the composer with, the send target, and the switch between the live tab and an imported file.
 */
import { createContext, createSignal, onCleanup, useContext, type Accessor } from 'solid-js';
import type { PanelStore } from '../../ui/panel-store.ts';
import { createFileTransport, type PanelTransport } from '../../link/transports.ts';
import { sendTarget, type LiveLink, type SendOutcome, type SendTarget } from '../../link/live-link.ts';
import { captureOf, readImported } from './capture-file.ts';
import { diffCaptures, type CaptureDiff, type RestCall, renderDiffText } from '../../log/protocol.ts';
import { defaultDraft, type Draft, type Side } from './draft.ts';

/**
 * What the act feature needs of the REST calls (the rest feature's RestLog has it): their records, exported with
 * the log, and showing an imported file's calls (null: the live ones again).
 */
export interface RestCalls {
  readonly available: boolean;
  records(): ReadonlyArray<{ call: RestCall }>;
  showFile(calls: readonly RestCall[] | null): void;
}

export type DrawerKind = 'compose' | 'replay' | 'export' | 'compare';

export interface ActController {
  store: PanelStore;
  link: LiveLink | null;
  drawer: Accessor<DrawerKind | null>;
  setDrawer(d: DrawerKind | null): void;
  /** A draft to load into the composer (bumped on each request). */
  seed: Accessor<{ draft: Draft; n: number } | null>;
  /** The composer's draft, kept while the drawer is closed. */
  draft: Accessor<Draft>;
  setDraft(d: Draft): void;
  openComposer(draft?: Draft): void;
  target: Accessor<SendTarget>;
  /** The embed frame chosen for sends ('' = the most recent embed frame). */
  frameChoice: Accessor<string>;
  setFrameChoice(url: string): void;
  send(side: Side, data: unknown): Promise<SendOutcome>;
  /**
   * The session the act state belongs to: a new one starts when the log is cleared, the inspected page navigates
   * (its top frame), or another source is shown (an import, back to live). What was said of a send belongs to the
   * session it was made in: `outcome` is cleared when a new one starts.
   */
  session: Accessor<number>;
  /** What the composer last said of a send ("Sent: …", "Not sent: …"), null once a new session started. */
  outcome: Accessor<{ ok: boolean; text: string } | null>;
  setOutcome(o: { ok: boolean; text: string } | null): void;
  /** What the store shows: the live tab, an imported file, or something else (demo, tests). */
  viewing: Accessor<{ kind: 'live' | 'file' | 'other'; label: string }>;
  importText(text: string, name: string): boolean;
  importFile(file: File): Promise<boolean>;
  importError: Accessor<string | null>;
  setImportError(e: string | null): void;
  goLive(): void;
  /** Import → Compare: what is shown now (A) against a file (B), as `embed-inspector diff` says it. */
  comparison: Accessor<{ a: string; b: string; diff: CaptureDiff; text: string } | null>;
  compareText(text: string, name: string): boolean;
  compareFile(file: File): Promise<boolean>;
  /** The REST calls seen in the Network traffic (DevTools only), or an imported file's: exported with the log. */
  rest: RestCalls | null;
}

/** The act controller as the composition root hands it to the feature's components. */
export const ActContext = createContext<ActController>();

/** The act controller; throws outside the composition root's provider (a wiring mistake). */
export function useAct(): ActController {
  const act = useContext(ActContext);
  if (!act) {
    throw new Error('useAct() is called outside the panel root (app/PanelRoot.tsx)');
  }
  return act;
}

/**
 * Start a new act session (`newSession`) when the log is cleared or the inspected page's top frame navigates, and
 * tell (`transportChanged`) when the store's source or its records change. `pageShown`: the page now shown is the
 * one a new source starts with (not a navigation).
 */
function watchSessions(store: PanelStore, newSession: () => void, transportChanged: () => void) {
  const log = store.log;
  let pageUrl = log.state.pageUrl;
  const pageChanged = () => {
    if (log.state.pageUrl !== pageUrl) {
      pageUrl = log.state.pageUrl;
      newSession();
    }
  };
  onCleanup(log.on('cleared', newSession));
  onCleanup(log.on('state', pageChanged));
  onCleanup(log.on('replaced', pageChanged));
  onCleanup(log.on('synced', pageChanged));
  onCleanup(
    log.on('batch', (e) => {
      for (let i = e.from; i < e.from + e.count; i++) {
        const r = log.at(i);
        if (r.navigation && r.frameId === 0) {
          newSession();
          return;
        }
      }
    }),
  );
  onCleanup(
    store.onChange((c) => {
      if (c.status || c.records) {
        transportChanged();
      }
    }),
  );
  return {
    pageShown: () => {
      pageUrl = log.state.pageUrl;
    },
  };
}

/**
 * Send `data` as the host (an action, to the tenant origin) or as the embed (to the host's origin), into the chosen
 * embed frame (`choice`; '' or gone: the most recent one).
 */
async function sendFrom(
  link: LiveLink | null,
  t: SendTarget,
  choice: string,
  side: Side,
  data: unknown,
): Promise<SendOutcome> {
  if (t.blocked) {
    return { id: '', ok: false, error: t.blocked };
  }
  const frames = t.embedFrames;
  const chosen = choice && frames.some((f) => f.url === choice) ? choice : frames[0]?.url;
  if (side === 'action') {
    return link!.send({ from: 'host', data, targetOrigin: t.tenantOrigin!, frameUrl: chosen });
  }
  if (!t.hostOrigin) {
    return { id: '', ok: false, error: 'The host page origin is unknown (no page URL yet): reload the page.' };
  }
  return link!.send({ from: 'embed', data, targetOrigin: t.hostOrigin, frameUrl: chosen });
}

/** What is shown now (A, with the REST calls when known) against capture file B, as `embed-inspector diff` says it. */
function comparisonOf(
  store: PanelStore,
  rest: RestCalls | undefined,
  b: Parameters<typeof diffCaptures>[1],
  names: { a: string; b: string },
) {
  const { log } = store;
  const a = captureOf(log.all(), {
    tenantOrigin: log.state.tenantOrigin,
    pageUrl: log.state.pageUrl,
    redact: false,
    ...(rest ? { rest: rest.records().map((x) => x.call) } : {}),
  });
  const diff = diffCaptures(a, b);
  return { ...names, diff, text: renderDiffText(diff, names) };
}

/**
 * Import and Compare: a capture file's text (or a chosen file) shown in place of the live tab (`use`), or compared
 * with what is shown (`label`); an unreadable or invalid file changes nothing, and `importError` says why.
 */
function createFileActions(o: {
  store: PanelStore;
  rest: RestCalls | undefined;
  use: (t: PanelTransport) => void;
  label: () => string;
  setDrawer: (d: DrawerKind | null) => void;
}) {
  const [importError, setImportError] = createSignal<string | null>(null);
  const [comparison, setComparison] = createSignal<{ a: string; b: string; diff: CaptureDiff; text: string } | null>(
    null,
  );
  /** A chosen file's text, or null when it cannot be read (the import error says why; nothing changes). */
  const readText = async (file: File): Promise<string | null> => {
    try {
      return await file.text();
    } catch (e) {
      setImportError(`Could not read ${file.name}: ${(e as Error).message}. Nothing was changed.`);
      return null;
    }
  };
  const importText = (text: string, name: string) => {
    const r = readImported(text, name);
    if ('error' in r) {
      setImportError(`Could not import ${r.error}. Nothing was changed.`);
      return false;
    }
    setImportError(null);
    o.use(createFileTransport(r.file, name));
    o.rest?.showFile(r.file.rest ?? []);
    return true;
  };
  const compareText = (text: string, name: string) => {
    const r = readImported(text, name);
    if ('error' in r) {
      setImportError(`Could not compare with ${r.error}. Nothing was changed.`);
      return false;
    }
    setImportError(null);
    const label = o.label() || 'this log';
    setComparison(comparisonOf(o.store, o.rest, r.file, { a: label, b: name }));
    o.setDrawer('compare');
    return true;
  };
  return {
    importError,
    setImportError,
    importText,
    async importFile(file: File) {
      const text = await readText(file);
      return text !== null && importText(text, file.name);
    },
    comparison,
    compareText,
    async compareFile(file: File) {
      const text = await readText(file);
      return text !== null && compareText(text, file.name);
    },
  };
}

export function createActController(opts: {
  store: PanelStore;
  link: LiveLink | null;
  useTransport: (t: PanelTransport) => void;
  rest?: RestCalls;
}): ActController {
  const { store, link } = opts;
  const [drawer, setDrawer] = createSignal<DrawerKind | null>(null);
  const [seed, setSeed] = createSignal<{ draft: Draft; n: number } | null>(null);
  const [draft, setDraft] = createSignal<Draft>(defaultDraft('action'));
  const [linkVersion, setLinkVersion] = createSignal(0);
  const [frameChoice, setFrameChoice] = createSignal('');
  const [transportVersion, setTransportVersion] = createSignal(0);
  if (link) {
    onCleanup(link.onChange(() => setLinkVersion((n) => n + 1)));
  }
  const [session, setSession] = createSignal(0);
  const [outcome, setOutcome] = createSignal<{ ok: boolean; text: string } | null>(null);
  const newSession = () => {
    setOutcome(null);
    setSession((n) => n + 1);
  };
  const sessions = watchSessions(store, newSession, () => setTransportVersion((n) => n + 1));

  const target = () => {
    linkVersion();
    return sendTarget(link);
  };
  const viewing = () => {
    transportVersion();
    const t = store.transportInfo;
    if (!t) {
      return { kind: 'other' as const, label: '' };
    }
    if (link && t === link.view) {
      return { kind: 'live' as const, label: t.label };
    }
    return { kind: t.kind === 'file' ? ('file' as const) : ('other' as const), label: t.label };
  };
  const use = (t: PanelTransport) => {
    opts.useTransport(t);
    setTransportVersion((n) => n + 1);
    sessions.pageShown();
    newSession();
  };
  const files = createFileActions({ store, rest: opts.rest, use, label: () => viewing().label, setDrawer });

  return {
    store,
    link,
    drawer,
    setDrawer,
    seed,
    draft,
    setDraft,
    target,
    frameChoice,
    setFrameChoice,
    session,
    outcome,
    setOutcome,
    viewing,
    ...files,
    rest: opts.rest ?? null,
    openComposer(d) {
      if (d) {
        setDraft(d);
        setSeed({ draft: d, n: (seed()?.n ?? 0) + 1 });
      }
      setDrawer('compose');
    },
    send(side, data) {
      return sendFrom(link, target(), frameChoice(), side, data);
    },
    goLive() {
      if (link) {
        use(link.view);
        files.setImportError(null);
        opts.rest?.showFile(null);
      }
    },
  };
}
