import type { HookName } from '../types.js';
import type { ResolvedConfig } from '../config/resolved.js';

/**
 * Whether this run is a calibration run (every planned tier runs whatever the verdicts): always with
 * `--calibrate`; otherwise config `calibrate` is the chance a manual/CI run is one. Hooks only sample
 * with `calibrateHooks: true`, since calibration slows the push. `random` returns [0, 1). Pure.
 */
export function shouldCalibrate(
  config: Pick<ResolvedConfig, 'calibrate' | 'calibrateHooks'>,
  hook: HookName,
  explicit: boolean,
  random: () => number,
): boolean {
  if (explicit) return true;
  if (config.calibrate <= 0) return false;
  if (hook !== 'manual' && !config.calibrateHooks) return false;
  return random() < config.calibrate;
}
