/** `cargo check` (and `cargo build`), read as a check as clippy is (clippy.ts): a compile error is an error, a lint denied into an error a finding. Pure. */
import { defineRunner } from '../record.js';
import { rustCheck } from './clippy.js';

export const record = defineRunner({
  name: 'cargo-check',
  check: rustCheck,
});
