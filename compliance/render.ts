import { cellText, slug, type Block, type Cell } from './document.ts';

/** The report document as Markdown (GitHub tables) and as one self-contained, printable HTML page. */

const mdCell = (cell: Cell) => cellText(cell).replace(/\|/g, '\\|').replace(/\n/g, '<br>') || ' ';

export function toMarkdown(blocks: readonly Block[]): string {
  const out: string[] = [];
  for (const block of blocks) {
    if (block.kind === 'heading') out.push(`${'#'.repeat(block.level)} ${block.text}`);
    else if (block.kind === 'paragraph') out.push(block.tone === 'bad' ? `**${block.text}**` : block.text);
    else if (block.kind === 'list') out.push(block.items.map((item) => `- ${item}`).join('\n'));
    else {
      const headers = block.headers.map((h) => h || ' ');
      out.push(
        [
          `| ${headers.join(' | ')} |`,
          `| ${headers.map(() => '---').join(' | ')} |`,
          ...block.rows.map((row) => `| ${row.map(mdCell).join(' | ')} |`),
        ].join('\n'),
      );
    }
  }
  return `${out.join('\n\n')}\n`;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** `code spans` in the text become <code>; everything else is escaped. */
const inline = (text: string) =>
  escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\n/g, '<br>');

// Inline styles only: the page must read offline and print without fetching anything.
const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;margin:2rem auto;max-width:1200px;padding:0 1rem}
h1{font-size:1.7rem;margin-bottom:.5rem}h2{border-bottom:2px solid #d0d7de;padding-bottom:.2rem;margin-top:2.2rem}
h3{margin-top:1.6rem}h4{margin:1rem 0 .3rem}
table{border-collapse:collapse;width:100%;margin:.4rem 0 1rem;font-size:12.5px}
th,td{border:1px solid #d0d7de;padding:.25rem .45rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#f3f5f7}
.good{background:#e6f4ea;color:#14532d}.note{background:#fff6db;color:#6b4e00}.bad{background:#fde8e8;color:#8a1c1c;font-weight:600}
p.bad{padding:.3rem .5rem}code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.95em}
@media print{body{margin:0;max-width:none}h2{break-before:page}h2#summary,h2#contents{break-before:auto}tr,h3,h4{break-inside:avoid}a{color:inherit;text-decoration:none}}
`;

export function toHtml(blocks: readonly Block[], title: string): string {
  const out: string[] = [];
  for (const block of blocks) {
    if (block.kind === 'heading') {
      const id = block.id ?? slug(block.text);
      out.push(`<h${block.level} id="${escapeHtml(id)}">${inline(block.text)}</h${block.level}>`);
    } else if (block.kind === 'paragraph')
      out.push(`<p${block.tone ? ` class="${block.tone}"` : ''}>${inline(block.text)}</p>`);
    else if (block.kind === 'list') {
      const anchor = (item: string) =>
        blocks.find((b) => b.kind === 'heading' && b.text === item) as Extract<Block, { kind: 'heading' }> | undefined;
      out.push(
        `<ul>${block.items.map((item) => `<li><a href="#${escapeHtml(anchor(item)?.id ?? slug(item))}">${inline(item)}</a></li>`).join('')}</ul>`,
      );
    } else {
      const cell = (c: Cell) =>
        typeof c === 'string' ? `<td>${inline(c)}</td>` : `<td class="${c.tone}">${inline(c.text)}</td>`;
      const head = block.headers.some(Boolean)
        ? `<thead><tr>${block.headers.map((h) => `<th>${inline(h)}</th>`).join('')}</tr></thead>`
        : '';
      out.push(
        `<table>${head}<tbody>${block.rows.map((row) => `<tr>${row.map(cell).join('')}</tr>`).join('\n')}</tbody></table>`,
      );
    }
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${out.join('\n')}
</body>
</html>
`;
}
