import { Readable } from "node:stream";
import { stringify } from "csv-stringify";

/**
 * A phone number as people write it, "+852 6123 4567", "+1 (555) 010-0000": a plus, then only
 * digits, spaces, dashes and parentheses, at least six digits. No function, reference or
 * operator that reaches outside the cell can be spelled with those, so it is kept as written.
 */
const PHONE_NUMBER = /^\+[\d ()-]+$/;
const MIN_PHONE_DIGITS = 6;

function isPhoneNumber(value: string): boolean {
  return PHONE_NUMBER.test(value) && (value.match(/\d/g)?.length ?? 0) >= MIN_PHONE_DIGITS;
}

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return before
 * one) as a formula; a leading single quote makes it text. A phone number's leading + is not
 * a formula (issue 25): it stays plain, so the export shows "+852 6123 4567", not "'+852…".
 */
export function neutralizeCell(value: string): string {
  if (!/^[=+\-@\t\r]/.test(value) || isPhoneNumber(value)) return value;
  return `'${value}`;
}

/** The inverse on import: a cell our export quoted back to what was stored ("'=x" → "=x"). */
export function restoreCell(value: string): string {
  return /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
}

/**
 * Records as a CSV download: UTF-8 with a BOM (so spreadsheets read Chinese text right), CRLF
 * line ends, a header row, every cell through `neutralizeCell`, read as the client reads (the
 * records are pulled one batch at a time, so memory stays flat).
 */
export function csvStream<Column extends string>(
  columns: readonly Column[],
  records: AsyncIterable<Record<Column, string>>,
): ReadableStream<Uint8Array> {
  async function* neutralized() {
    for await (const record of records) {
      const cells = { ...record };
      for (const column of columns) cells[column] = neutralizeCell(cells[column] ?? "");
      yield cells;
    }
  }
  const source = Readable.from(neutralized());
  const csv = stringify({ bom: true, header: true, columns: [...columns], record_delimiter: "\r\n" });
  // A failed read ends the download with an error instead of leaving it hanging.
  source.on("error", (error) => csv.destroy(error));
  return Readable.toWeb(source.pipe(csv)) as ReadableStream<Uint8Array>;
}
