// The command table (commands.ts) is what the parser takes, what each command's --help lists and what the main
// --help's synopsis shows: a flag is one row, and every view of it follows.
import { describe, expect, it } from 'vitest';
import { UsageError } from './args.ts';
import {
  COMMANDS,
  commandHelp,
  flagLabel,
  mainHelp,
  parseCommand,
  wrap,
  type CommandSpec,
  type FlagSpec,
} from './commands.ts';

const flagsOf = (c: CommandSpec) => Object.entries(c.flags) as [string, FlagSpec][];
const reEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the command table', () => {
  it.each(COMMANDS.map((c) => [c.name, c] as const))('%s: the parser takes every flag of its table', (_, c) => {
    for (const [name, f] of flagsOf(c)) {
      const argv = f.type === 'string' ? [`--${name}`, f.choices?.[0] ?? 'x'] : [`--${name}`];
      const { values } = parseCommand(c, ['operand', ...argv]);
      expect((values as Record<string, unknown>)[name], name).toEqual(
        f.type === 'boolean' ? true : f.multiple ? [argv[1]] : argv[1],
      );
      if (f.short) {
        const short = parseCommand(c, [`-${f.short}`, ...argv.slice(1)]).values as Record<string, unknown>;
        expect(short[name], `-${f.short}`).toBeDefined();
      }
    }
    expect(parseCommand(c, ['-h']).values.help).toBe(true);
    expect(() => parseCommand(c, ['--no-such-flag'])).toThrow(new UsageError("Unknown option '--no-such-flag'"));
  });

  it.each(COMMANDS.map((c) => [c.name, c] as const))('%s: its --help lists every flag of its table', (_, c) => {
    const help = commandHelp(c);
    expect(help.startsWith(`Usage: embed-inspector ${c.name} ${c.usage} [options]\n`)).toBe(true);
    for (const [name, f] of flagsOf(c)) {
      expect(help.split('\n'), name).toContainEqual(
        expect.stringMatching(
          new RegExp(`^  ${reEscape(`${f.short ? `-${f.short}, ` : ''}${flagLabel(name, f)}`)}( |$)`),
        ),
      );
    }
    expect(help).toContain('  -h, --help ');
    for (const line of help.split('\n')) {
      expect(line.length, line).toBeLessThanOrEqual(112);
    }
  });

  it('the main --help shows each command with every flag not in its usage', () => {
    const help = mainHelp('9.9.9');
    for (const c of COMMANDS) {
      // the command's synopsis: its line and the indented lines under it
      const start = help.indexOf(`\n  embed-inspector ${c.name} ${c.usage} [`);
      const end = help.indexOf('\n  embed-inspector ', start + 1);
      expect(start, c.name).toBeGreaterThan(0);
      const synopsis = help.slice(start, end);
      for (const [name, f] of flagsOf(c)) {
        expect(synopsis.includes(`[${flagLabel(name, f)}]`), `${c.name} --${name}`).toBe(!f.inUsage);
      }
    }
    for (const line of help.split('\n')) {
      expect(line.length, line).toBeLessThanOrEqual(112);
    }
  });

  it('a new flag is one row: parsed, in the command help and in the main help', () => {
    const base = COMMANDS[0];
    const more: CommandSpec = {
      ...base,
      flags: { ...base.flags, 'ignore-https-errors': { type: 'boolean', help: 'accept self-signed certificates' } },
    };
    expect(parseCommand(more, ['--ignore-https-errors']).values['ignore-https-errors']).toBe(true);
    expect(() => parseCommand(base, ['--ignore-https-errors'])).toThrow(UsageError);
    expect(commandHelp(more)).toMatch(/ {2}--ignore-https-errors +accept self-signed certificates\n/);
  });

  it('labels a flag by its value placeholder or its choices', () => {
    expect(flagLabel('out', { type: 'string', value: 'FILE', help: '' })).toBe('--out FILE');
    expect(flagLabel('mode', { type: 'string', choices: ['full', 'receive-only'], help: '' })).toBe(
      '--mode full|receive-only',
    );
    expect(flagLabel('all', { type: 'boolean', help: '' })).toBe('--all');
  });

  it('wraps at word boundaries, a paragraph per line break', () => {
    expect(wrap('aa bb cc dd', 5)).toEqual(['aa bb', 'cc dd']);
    expect(wrap('one\ntwo three', 9)).toEqual(['one', 'two three']);
    expect(wrap('averyveryverylongword x', 5)).toEqual(['averyveryverylongword', 'x']);
  });
});
