/**
 * Minimal RFC 4180 CSV: fields separated by commas, quoted with `"` when they hold a comma,
 * a quote or a line break, quotes doubled inside. Records may span lines inside quotes.
 */
export function parseCsvRecord(text: string): string[] {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      fields.push(field);
      field = "";
    } else if (c !== "\r") field += c;
  }
  fields.push(field);
  return fields;
}

/** True when `text` ends inside a quoted field (the record goes on on the next line). */
export function isOpenRecord(text: string): boolean {
  let quotes = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 34) quotes++;
  return quotes % 2 === 1;
}

export function formatCsvRecord(fields: readonly string[]): string {
  return fields.map((field) => (/[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field)).join(",");
}
