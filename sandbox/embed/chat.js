// The standalone chat surface, and the AI assistant box that the dashboard (agent) and app surfaces reuse.
import { esc } from './widgets.js';

/** @typedef {import('./main.js').Ctx} Ctx */
/** @typedef {'completed' | 'error' | 'pending'} Outcome */

/**
 * An assistant conversation. `ask` posts ai-query `submitted`, then `completed` or `error` (none for `pending`).
 * Without an outcome, a query containing "fail" or "error" fails.
 * @param {Ctx} ctx @param {{agentId?: string}} opts
 */
export function createAssistant(ctx, opts = {}) {
  const chatId = `chat-${Math.random().toString(36).slice(2, 8)}`;
  /** @type {{query: string, status: string, answer?: string}[]} */
  const turns = [];
  return {
    turns,
    chatId,
    /** @param {string} query @param {Outcome} [outcome] @returns {Promise<string>} */
    async ask(query, outcome) {
      /** @type {Record<string, unknown>} */
      const base = { query, chatId };
      if (opts.agentId) {
        base.agentId = opts.agentId;
      }
      const turn = { query, status: 'submitted' };
      turns.push(turn);
      ctx.bus.emit('svc:event:ai-query', { ...base, status: 'submitted' });
      ctx.render();
      const result = outcome ?? (/fail|error/i.test(query) ? 'error' : 'completed');
      if (result === 'pending') {
        ctx.state.withheld.push('svc:event:ai-query answer');
        return 'pending';
      }
      await new Promise((r) => setTimeout(r, 400));
      if (ctx.state.down) {
        return 'down';
      }
      turn.status = result;
      /** @type {any} */ (turn).answer =
        result === 'completed'
          ? `EMEA leads revenue this month; ${Object.keys(ctx.state.filters).length} filter(s) applied, times in ${ctx.state.timezone}.`
          : 'The assistant could not answer this question.';
      ctx.bus.emit('svc:event:ai-query', { ...base, status: result });
      ctx.render();
      return result;
    },
    /** HTML of the conversation and its input. */
    html() {
      const t = ctx.t;
      return `<section class="assistant card" data-testid="assistant">
        <h3>${esc(opts.agentId ? t('assistant') : t('chat'))}</h3>
        <ol class="turns" data-testid="ai-turns">${turns
          .map(
            (x) =>
              `<li data-status="${x.status}"><b>${esc(x.query)}</b><span>${esc(x.status === 'submitted' ? t('thinking') : /** @type {any} */ (x.answer ?? ''))}</span></li>`,
          )
          .join('')}</ol>
        <form class="ask" data-ask><input name="q" data-testid="ai-input" placeholder="${esc(t('askPlaceholder'))}" autocomplete="off">
        <button class="primary" data-testid="ai-submit">${esc(t('ask'))}</button></form></section>`;
    },
  };
}

/** Wires the assistant form (it is re-rendered, so listen on the document once). @param {ReturnType<typeof createAssistant>} assistant */
export function listenForQuestions(assistant) {
  document.addEventListener('submit', (e) => {
    const form = /** @type {HTMLFormElement} */ (e.target);
    if (!form.matches('[data-ask]')) {
      return;
    }
    e.preventDefault();
    const input = /** @type {HTMLInputElement} */ (form.elements.namedItem('q'));
    const q = input.value.trim();
    input.value = '';
    if (q) {
      assistant.ask(q);
    }
  });
}

/** @param {Ctx} ctx @returns {import('./main.js').Surface} */
export function chatSurface(ctx) {
  const assistant = createAssistant(ctx);
  listenForQuestions(assistant);
  /** @type {'chat' | 'history' | null} */
  let page = 'chat';
  return {
    match: (path) => (path === '/embed/chat' ? 'chat' : path === '/embed/chat/history' ? 'history' : null),
    async load(p) {
      await ctx.pageDelay();
      page = p;
      return { title: p === 'chat' ? ctx.t('chat') : p === 'history' ? ctx.t('history') : ctx.t('notFound') };
    },
    render() {
      const t = ctx.t;
      const tabs = `<nav class="tabs"><a data-route href="/embed/chat" class="${page === 'chat' ? 'active' : ''}" data-testid="tab-chat">${esc(t('chat'))}</a>
        <a data-route href="/embed/chat/history" class="${page === 'history' ? 'active' : ''}" data-testid="tab-history">${esc(t('history'))}</a></nav>`;
      if (page === 'history') {
        return `${tabs}<ol class="history card" data-testid="history">${assistant.turns.map((x) => `<li>${esc(x.query)} <span class="badge">${x.status}</span></li>`).join('') || `<li class="muted">—</li>`}</ol>`;
      }
      if (page === null) {
        return `${tabs}<p class="notfound" data-testid="not-found">${esc(t('notFound'))}</p>`;
      }
      return `${tabs}${assistant.html()}`;
    },
    rerun() {
      ctx.render();
    },
    hooks: {
      askAI: (/** @type {string} */ q, /** @type {Outcome} */ outcome) => assistant.ask(q, outcome),
    },
  };
}
