import { ZERO_SHA } from '../config/defaults.js';

/** A full object id as git prints it: 40 (SHA-1) or 64 (SHA-256) lower-case hex digits. */
export const isObjectId = (s: string): boolean => /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(s);

/** The all-zero id git sends for a ref that does not exist on one side. */
export const isZeroId = (s: string): boolean => /^0+$/.test(s);

/** One line git hands a pre-push hook on stdin. */
export interface PushRef {
  localRef: string;
  localSha: string;
  remoteRef: string;
  remoteSha: string;
}

export type PushKind = 'delete' | 'new' | 'update';

/** Parses pre-push stdin: `<local ref> SP <local sha> SP <remote ref> SP <remote sha> LF`. Pure. */
export function parsePushRefs(stdin: string): { refs: PushRef[]; bad: string[] } {
  const refs: PushRef[] = [];
  const bad: string[] = [];
  for (const line of stdin.split('\n')) {
    if (line.trim() === '') continue;
    const parts = line.trim().split(' ');
    const [localRef, localSha, remoteRef, remoteSha] = parts;
    if (parts.length !== 4 || !localRef || !localSha || !remoteRef || !remoteSha || !isObjectId(localSha) || !isObjectId(remoteSha)) {
      bad.push(line);
      continue;
    }
    refs.push({ localRef, localSha, remoteRef, remoteSha });
  }
  return { refs, bad };
}

export function pushKind(ref: PushRef): PushKind {
  if (isZeroId(ref.localSha) || ref.localRef === '(delete)') return 'delete';
  if (isZeroId(ref.remoteSha)) return 'new';
  return 'update';
}

export { ZERO_SHA };
