// A visible log list that stays fast under a flood: rows are added in batches and only the newest are kept in the DOM.
import { summarize } from '/static/shared/summarize.js';

const KEEP = 200;
const started = performance.now();

/**
 * @param {HTMLOListElement} list
 * @param {HTMLElement} counter
 */
export function createLog(list, counter) {
  /** @type {{title: string, detail: unknown, tone?: string, at: number}[]} */
  let pending = [];
  let total = 0;
  let timer = 0;

  const flush = () => {
    timer = 0;
    const rows = pending.slice(-KEEP);
    pending = [];
    const frag = document.createDocumentFragment();
    for (const row of rows) {
      const li = document.createElement('li');
      if (row.tone) {
        li.className = row.tone;
      }
      const time = document.createElement('span');
      time.className = 'time';
      time.textContent = `${((row.at - started) / 1000).toFixed(2)}s`;
      const title = document.createElement('b');
      title.textContent = row.title;
      const detail = document.createElement('code');
      detail.textContent = summarize(row.detail);
      li.append(time, title, detail);
      frag.append(li);
    }
    list.append(frag);
    while (list.childElementCount > KEEP) {
      list.firstElementChild?.remove();
    }
    counter.textContent = String(total);
    list.scrollTop = list.scrollHeight;
  };

  return {
    /** @param {string} title @param {unknown} detail @param {string} [tone] */
    add(title, detail, tone) {
      total++;
      pending.push({ title, detail, tone, at: performance.now() });
      if (pending.length > KEEP * 2) {
        pending = pending.slice(-KEEP);
      }
      if (!timer) {
        timer = window.setTimeout(flush, 30);
      }
    },
    clear() {
      pending = [];
      total = 0;
      list.replaceChildren();
      counter.textContent = '0';
    },
  };
}
