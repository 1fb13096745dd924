import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every TypeScript source under `dir` (the structure tests read src/ with it). */
export function tsSources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) tsSources(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}
