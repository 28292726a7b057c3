import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * The checks behind test/tooling/docs-links.test.ts: every relative link and `#anchor` of the docs
 * resolves, and docs/endpoints.md lists exactly the operations of the service's OpenAPI document.
 */

const FENCE = /^\s*(```|~~~)/;

/** The lines of a Markdown text outside fenced code blocks, with their 1-based numbers. */
function proseLines(markdown: string): { line: number; text: string }[] {
  const lines: { line: number; text: string }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((text, i) => {
    if (FENCE.test(text)) fenced = !fenced;
    else if (!fenced) lines.push({ line: i + 1, text });
  });
  return lines;
}

/** GitHub's anchor for a heading: its rendered text lowercased, punctuation dropped, spaces as hyphens. */
export function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase();
  return rendered.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor a Markdown text's headings make; a repeated heading gets `-1`, `-2`… as on GitHub. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!heading) continue;
    const slug = githubSlug(heading[1]!);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

export type Link = { file: string; line: number; target: string };

/** The links of a Markdown file that point inside the repository (no scheme), outside code. */
export function relativeLinks(file: string, markdown: string): Link[] {
  const links: Link[] = [];
  for (const { line, text } of proseLines(markdown)) {
    const withoutCode = text.replace(/`[^`]*`/g, '');
    for (const match of withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ file, line, target });
    }
  }
  return links;
}

/** Why a link does not resolve, or undefined when it does. `read` answers a file's text, undefined when there is none. */
export function linkProblem(link: Link, read: (path: string) => string | undefined): string | undefined {
  const [path, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const target = path === '' ? link.file : join(dirname(link.file), decodeURIComponent(path));
  const text = read(target);
  if (text === undefined) return `${link.file}:${link.line}: ${link.target}: no file ${target}`;
  if (anchor === undefined || anchor === '') return undefined;
  if (!target.endsWith('.md')) return `${link.file}:${link.line}: ${link.target}: an anchor into a file that is not Markdown`;
  if (!headingAnchors(text).has(anchor.toLowerCase())) return `${link.file}:${link.line}: ${link.target}: no heading of ${target} makes #${anchor}`;
  return undefined;
}

/** Every broken relative link of the given Markdown files (paths relative to `root`). */
export function brokenLinks(root: string, files: string[]): string[] {
  const read = (path: string) => {
    const absolute = join(root, path);
    if (relative(root, absolute).startsWith('..') || !existsSync(absolute)) return undefined;
    try {
      return readFileSync(absolute, 'utf8');
    } catch {
      return ''; // a folder: it exists, and holds no headings
    }
  };
  return files.flatMap((file) => relativeLinks(file, read(file) ?? '').flatMap((link) => linkProblem(link, read) ?? []));
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Paths = Record<string, Partial<Record<(typeof METHODS)[number], { summary?: string }>>>;

/** `METHOD path` → summary, for every operation of an OpenAPI document, in the document's order. */
export function documentOperations(paths: Paths): [string, string][] {
  return Object.entries(paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method): [string, string] => [`${method.toUpperCase()} ${path}`, item[method]!.summary ?? '']),
  );
}

/** The rows of docs/endpoints.md's table: `METHOD path` → summary. */
export function endpointRows(markdown: string): [string, string][] {
  return proseLines(markdown).flatMap(({ text }) => {
    const row = /^\|\s*`([A-Z]+) ([^`]+)`\s*\|\s*(.*?)\s*\|$/.exec(text);
    return row ? [[`${row[1]} ${row[2]}`, row[3]!.replace(/\\\|/g, '|')] as [string, string]] : [];
  });
}

/** docs/endpoints.md as scripts/write-endpoints-doc.ts writes it. */
export function endpointsPage(operations: [string, string][]): string {
  const rows = operations.map(([key, summary]) => {
    const [method, path] = key.split(' ');
    return `| \`${method} ${path}\` | ${summary.replace(/\|/g, '\\|')} |`;
  });
  return [
    '# Endpoints',
    '',
    "<!-- Written by `npx tsx scripts/write-endpoints-doc.ts` from the service's own OpenAPI document; test/tooling/docs-links.test.ts checks it. -->",
    '',
    `Every operation of the API (${operations.length}), as \`GET /2025-10-13/openapi.json\` lists them; the rendered reference`,
    '(`…/2025-10-13/reference`) has each one in full. The rules they all follow are in [API conventions](api-conventions.md).',
    '[Back to the README](../README.md).',
    '',
    '| Operation | Summary |',
    '|---|---|',
    ...rows,
    '',
  ].join('\n');
}

export type { Paths as OpenApiPaths };
