import { GridError } from '../common/errors';

/**
 * Arguments under two names: ours and RegReader's (start / start_page, reference / reference_text …),
 * so an agent written for either calls the same tool. One schema declares both as optional; this
 * picks whichever was given and names both in the error when neither was.
 */
export function eitherArg<T>(ours: T | undefined, theirs: T | undefined, names: string, what: string): T {
  const v = ours ?? theirs;
  if (v === undefined || v === null || (typeof v === 'string' && !v.trim())) throw new GridError('INVALID_INPUT', `${names}: 请提供${what}`);
  return v;
}
