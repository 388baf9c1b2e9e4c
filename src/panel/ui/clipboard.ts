/** Copy text. DevTools panels are iframes where the async Clipboard API may be refused: fall back to execCommand. */
export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall through */
  }
  const ta = document.createElement('textarea');
  ta.value = text;
  ta.setAttribute('readonly', '');
  ta.style.position = 'fixed';
  ta.style.opacity = '0';
  document.body.appendChild(ta);
  const active = document.activeElement as HTMLElement | null;
  ta.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  ta.remove();
  active?.focus({ preventScroll: true });
  return ok;
}

/**
 * Save text as a file through the browser's download (a link to a Blob, clicked); the Blob is let go once the
 * download has surely taken it.
 */
export function saveAsFile(text: string, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  const active = document.activeElement as HTMLElement | null;
  document.body.appendChild(a);
  a.click();
  a.remove();
  keepFocus(active);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Give the focus back to `el` if a download took it (to the page's body, or out of the window while the browser
 * shows the download): a key pressed next is then the panel's, not DevTools' (its Esc opens the Console drawer).
 */
function keepFocus(el: HTMLElement | null): void {
  if (!el || el === document.body) {
    return;
  }
  const back = () => {
    if (el.isConnected && (document.activeElement === document.body || document.activeElement === null)) {
      el.focus({ preventScroll: true });
    }
  };
  back();
  window.addEventListener('focus', back, { once: true });
  setTimeout(() => window.removeEventListener('focus', back), 10_000);
}
