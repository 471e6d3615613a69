// rich_text property values arrive as HTML; a cell shows them as the plain text a person reads.

// A Map, not an object: "&constructor;" must stay as written, not find Object's own properties.
const NAMED_ENTITIES = new Map(Object.entries({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }));

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity: string, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES.get(name.toLowerCase()) ?? entity;
  });
}

/**
 * HTML as plain text: tags dropped, entities decoded, a line break where a paragraph, line break, heading
 * or list item ("• ") ends. Not an HTML parser: the result is only shown as text, never rendered.
 */
export function richTextToPlain(html: string): string {
  const text = html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/\r\n?/g, '\n')
    // Line breaks in the source are layout, not text, where HTML is involved.
    .replace(/\s*\n\s*/g, ' ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n• ')
    .replace(/<\/(p|div|h[1-6]|li|ul|ol|blockquote|pre|tr)\s*>/gi, '\n')
    .replace(/<(p|div|h[1-6]|ul|ol|blockquote|pre|tr)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '');
  return (
    decodeEntities(text)
      .split('\n')
      .map((line) => line.replace(/[ \t]+/g, ' ').trim())
      .join('\n')
      // Block ends and starts both break the line: one break between blocks, not a blank line.
      .replace(/\n{2,}/g, '\n')
      .trim()
  );
}
