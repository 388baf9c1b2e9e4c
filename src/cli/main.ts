export async function main(argv: string[]): Promise<number> {
  process.stdout.write(`embed-inspector ${argv.join(' ')}\n`);
  return 0;
}
