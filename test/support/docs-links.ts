import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * The checks behind test/tooling/docs-links.test.ts: every relative link and `#anchor` of the docs
 * resolves, every command they name exists, the tables of the measurement pages name the command that
 * measured them, and docs/endpoints.md lists exactly the operations of the service's OpenAPI document.
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

/** A file's text under `root`, '' for a folder, undefined when there is none (or it lies outside `root`). */
export function repositoryReader(root: string): (path: string) => string | undefined {
  return (path) => {
    const absolute = join(root, path);
    if (relative(root, absolute).startsWith('..') || !existsSync(absolute)) return undefined;
    try {
      return readFileSync(absolute, 'utf8');
    } catch {
      return ''; // a folder: it exists, and holds no headings
    }
  };
}

/** Every broken relative link of the given Markdown files (paths relative to `root`). */
export function brokenLinks(root: string, files: string[]): string[] {
  const read = repositoryReader(root);
  return files.flatMap((file) => relativeLinks(file, read(file) ?? '').flatMap((link) => linkProblem(link, read) ?? []));
}

/** A command the docs name in inline code: `npm run …`, `npm test …`, `npm start`, `npx tsx …`, `node …`, `bin/…`, with any `NAME=value` first. */
const COMMAND = /^(?:[A-Z][A-Z0-9_]*=\S* )*(?:npm (?:run|test|start)\b|npx tsx |node |bin\/)/;

export type NamedCommand = { file: string; line: number; command: string };

/** The commands a Markdown file names in inline code, outside fenced blocks (a span may wrap onto the next line). */
export function namedCommands(file: string, markdown: string): NamedCommand[] {
  const prose = proseLines(markdown);
  const text = prose.map((l) => l.text).join('\n');
  const commands: NamedCommand[] = [];
  for (const match of text.matchAll(/`([^`]+)`/g)) {
    const command = match[1]!.replace(/\s+/g, ' ').trim();
    if (!COMMAND.test(command)) continue;
    const row = text.slice(0, match.index).split('\n').length - 1;
    commands.push({ file, line: prose[row]!.line, command });
  }
  return commands;
}

/** What a command check reads: package.json's scripts, the repository's files, and the text of bin/, src/, worker/ and test/ (where variables are read). */
export type CommandContext = {
  scripts: Record<string, string>;
  read: (path: string) => string | undefined;
  sources: string;
};

/** A value written as a placeholder (`<paths>`, `…`, `0|1`), not checked. */
const placeholder = (token: string) => /[<>…|]|\.\.\./.test(token);

/** Whether `npm run <script>` takes `--flag`: its bin/ script names it, or a TypeScript entry it runs declares it (parseArgs options). */
function takesFlag(script: string, flag: string, ctx: CommandContext): boolean {
  const runner = ctx.read(`bin/${script}`);
  if (runner === undefined) return false;
  if (new RegExp(`(^|[\\s"'(])--${flag}([\\s"'=)]|$)`, 'm').test(runner)) return true;
  return [...runner.matchAll(/\btest\/[\w/.-]+\.ts\b/g)].some((entry) => new RegExp(`^\\s*'?${flag}'?:\\s*\\{\\s*type:`, 'm').test(ctx.read(entry[0]) ?? ''));
}

/** Why a named command would not run as written (no such script, file, bench section, option or variable), or nothing. */
export function commandProblems(named: NamedCommand, ctx: CommandContext): string[] {
  const problems: string[] = [];
  const say = (why: string) => problems.push(`${named.file}:${named.line}: \`${named.command}\`: ${why}`);
  const exists = (path: string) => ctx.read(path) !== undefined;
  const tokens = named.command.replace(/[[\]]/g, ' ').split(' ').filter(Boolean);
  let at = 0;
  for (; /^[A-Z][A-Z0-9_]*=/.test(tokens[at] ?? ''); at++) {
    const [name, value] = tokens[at]!.split(/=(.*)/s) as [string, string];
    if (!new RegExp(`\\b${name}\\b`).test(ctx.sources)) say(`${name} is read nowhere in bin/, src/, worker/ or test/`);
    if (name === 'BENCH_ONLY' && !placeholder(value))
      for (const section of value.split(','))
        if (!exists(`test/bench/${section}.bench.ts`)) say(`no bench section ${section} (test/bench/${section}.bench.ts)`);
  }
  const [program, first, ...rest] = tokens.slice(at);
  let script: string | undefined;
  let args: string[] = [];
  if (program === 'npm') {
    const words = [first!, ...rest];
    script = first === 'run' ? words.slice(1).find((w) => !w.startsWith('-')) : first;
    if (script === undefined || !(script in ctx.scripts)) say(`no npm script ${script ?? '(none)'} in package.json`);
    args = words.includes('--') ? words.slice(words.indexOf('--') + 1) : [];
  } else if (program === 'npx' || program === 'node') {
    const path = program === 'npx' ? rest[0] : first;
    if (path && !path.startsWith('-') && !path.startsWith('dist/') && !placeholder(path) && !exists(path)) say(`no file ${path}`);
  } else if (program && !exists(program)) say(`no file ${program}`);
  // `npm run drill -- <name> [--options]`: the drill is a file of test/proof/drills/, and its options are that file's.
  const drill = script === 'drill' ? args[0] : undefined;
  if (script === 'drill' && (!drill || (!placeholder(drill) && !exists(`test/proof/drills/${drill}.ts`))))
    say(`no drill ${drill ?? '(none)'} (test/proof/drills/<name>.ts)`);
  for (const arg of args.map((a) => a.replace(/^['"]|['"]$/g, ''))) {
    if (arg.startsWith('test/') && !placeholder(arg) && !exists(arg.replace(/\/$/, ''))) say(`no file or folder ${arg}`);
    const flag = /^--([a-z][a-z-]*)/.exec(arg)?.[1];
    if (flag && script && ['bench', 'chaos', 'fuzz'].includes(script) && !takesFlag(script, flag, ctx)) say(`npm run ${script} takes no --${flag}`);
    if (
      flag &&
      drill &&
      !placeholder(drill) &&
      !new RegExp(`(^|[\\s{,])'?${flag}'?:\\s*\\{\\s*type:`, 'm').test(ctx.read(`test/proof/drills/${drill}.ts`) ?? '')
    )
      say(`the ${drill} drill takes no --${flag}`);
  }
  return problems;
}

/**
 * The tables of a page of measurements that name no command: each must name the command that measured
 * its figures in its header row or in the paragraph directly above it.
 */
export function tablesWithoutCommand(file: string, markdown: string): string[] {
  const blocks: { line: number; lines: string[] }[] = [];
  let block: { line: number; lines: string[] } | undefined;
  for (const { line, text } of proseLines(markdown)) {
    if (text.trim() === '') block = undefined;
    else if (block) block.lines.push(text);
    else blocks.push((block = { line, lines: [text] }));
  }
  const namesCommand = (text: string) => namedCommands(file, text).length > 0;
  return blocks.flatMap((table, i) => {
    if (!table.lines.every((l) => l.trimStart().startsWith('|'))) return [];
    const caption = blocks[i - 1]?.lines.join('\n') ?? '';
    return namesCommand(table.lines[0]!) || namesCommand(caption)
      ? []
      : [`${file}:${table.line}: a table of figures names no command (in its header or the paragraph above it)`];
  });
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
