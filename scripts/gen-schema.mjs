// Writes schema/svc-embed.schema.json and docs/rules.md from the protocol catalog (built library).
// `npm run schema` builds the library first. A unit test (src/protocol/generated.test.ts) fails when they are stale.
import { writeFileSync } from 'node:fs';
const { toJsonSchema, rulesMarkdown } = await import('../dist/node/protocol.js');
writeFileSync(
  new URL('../schema/svc-embed.schema.json', import.meta.url),
  `${JSON.stringify(toJsonSchema(), null, 2)}\n`,
);
writeFileSync(new URL('../docs/rules.md', import.meta.url), rulesMarkdown());
console.log('wrote schema/svc-embed.schema.json and docs/rules.md');
