/**
 * The rule table's own sentences (protocol/rules.ts) mark names as Markdown code spans: `surface`. Shown as <code>,
 * the rest as text (Solid escapes both): a reader sees the names set apart, not the backticks.
 */
export function InlineCode(p: { text: string }) {
  return <>{p.text.split('`').map((part, k) => (k % 2 ? <code>{part}</code> : part))}</>;
}
