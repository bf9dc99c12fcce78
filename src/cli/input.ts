import fs from 'node:fs/promises';

/** The content of FILE, or of standard input for `-`. */
export async function readInput(file: string): Promise<string> {
  if (file !== '-') return fs.readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
