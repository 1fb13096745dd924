/** Text from the ledger (tier names, test ids, reasons) made safe to print or to put in HTML. Pure. */
import { shown } from '../util/escape.js';

/** Control characters made visible, so nothing printed can move the cursor or hide a line. */
export const printable = (s: string): string =>
  s.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** For HTML text and attribute values: control characters made visible, markup characters escaped. */
export const esc = (v: string | number | null | undefined): string => printable(String(v ?? '')).replace(/[&<>"']/g, (c) => ENTITIES[c]!);

const HTML_CHARS: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * A markdown line (or table cell) with outside text in it: control characters shown, `<`, `>` and `&`
 * as entities, so no HTML gets through to a page that renders markdown; the rest of the markdown is
 * left as written. Pure.
 */
export const mdHtml = (s: string): string => printable(s).replace(/[&<>]/g, (c) => HTML_CHARS[c]!);

const MD_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Outside text (a test name, a gate's reason) as literal markdown text, fit for a table cell: control
 * characters shown as escapes, markup characters escaped, so it can neither format, link, inject HTML
 * nor break the table. Pure.
 */
export const mdText = (s: string): string =>
  shown(s)
    .replace(/[&<>]/g, (c) => MD_ENTITIES[c]!)
    .replace(/[\\`*_[\]{}()#+!|~]/g, '\\$&');
