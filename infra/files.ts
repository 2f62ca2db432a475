import { renameSync, writeFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';

/**
 * Files the embedded log and store replace whole (offsets, compacted segments and tables): the
 * text goes to `<file>.tmp`, which is renamed over the file, so a killed process leaves the old
 * content or the new, never a torn file. Not fsynced: the embedded mode survives a killed
 * process, not a lost machine.
 */
export function replaceFileSync(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

/** `replaceFileSync` off the event loop; one at a time per file is the caller's to ensure */
export async function replaceFile(file: string, text: string): Promise<void> {
  await writeFile(`${file}.tmp`, text);
  await rename(`${file}.tmp`, file);
}

/** values as JSON lines, each ending in a newline */
export function jsonLines(values: readonly unknown[]): string {
  return values.map((v) => `${JSON.stringify(v)}\n`).join('');
}
