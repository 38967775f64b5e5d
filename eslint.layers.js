// The layers of src/, top to bottom, written once: a file may import from the layers below its
// own and from its own folder, never from above nor from another folder of its own layer.
// src/README.md says why each folder sits where it does; docs/decisions.md why the order is this.
// Each entry is a folder of src/ or a file at its root.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const LAYERS = [
  ['server.ts', 'cli'], // what starts: the server process and the admin CLI
  ['app.ts', 'cluster.ts', 'runtime.ts'], // the app factory; the cluster supervisor and the Node check the server starts
  ['openapi'], // documents the routes
  ['panel', 'routes'], // the web panel and the API's routes
  ['container.ts'], // builds the services and repositories from a storage
  ['webhooks', 'idempotency', 'receiving', 'quotes', 'delivery', 'recurring'], // capabilities with their own services, repositories and route glue
  ['services', 'http'], // the rules; what every request goes through
  ['events', 'auth'], // what happened, as rows; keys and the verifier
  ['repositories'], // the queries
  ['db', 'schemas', 'documents', 'rate-limit', 'metrics', 'logging'], // storage, API shapes, e-invoices, counters
  ['money', 'lib'], // exact decimals; helpers with no domain knowledge
  ['errors', 'config.ts'], // the error table; the environment
];

const ROOT = dirname(fileURLToPath(import.meta.url));
const SRC = join(ROOT, 'src');
const SOURCE = /\.(ts|mts|js|mjs)$/;
const FILES = '{ts,mts,js,mjs}';

/** The layer entry a path inside src/ belongs to: its top folder, or the file itself at the root. */
function entryOf(relativePath) {
  const [top, ...rest] = relativePath.split(/[\\/]/);
  return rest.length === 0 ? top.replace(/\.js$/, '.ts') : top;
}

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** How deep the source files of each folder go below it (src/panel/routes/x.ts is 2 deep). */
function depthsOf(folder) {
  const depths = new Set();
  const walk = (dir, depth) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name), depth + 1);
      else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) depths.add(depth);
    }
  };
  walk(join(SRC, folder), 1);
  return [...depths];
}

const ORDER_NOTE = 'src/README.md has the layer order (eslint.layers.js)';

/**
 * One ESLint config object per entry and depth: `no-restricted-imports` refuses the static
 * imports, and `no-restricted-syntax` the dynamic ones, of each entry at or above the entry's
 * layer. A relative path reaches src/ from a file `depth` folders below it with exactly `depth`
 * `../` (`./` at the root), which is what each pattern matches. `extraSyntax(entry)` adds
 * selectors of other checks, since a file takes one `no-restricted-syntax` list.
 */
export function layerConfigs(extraSyntax = () => []) {
  const layerOf = new Map(LAYERS.flatMap((layer, index) => layer.map((entry) => [entry, index + 1])));
  const name = (entry) => (entry.endsWith('.ts') ? `src/${entry}` : `src/${entry}/`);
  const configs = [];
  for (const [entry, layer] of layerOf) {
    const forbidden = [...layerOf].filter(([other, at]) => other !== entry && at <= layer);
    const isFile = entry.endsWith('.ts');
    for (const depth of isFile ? [0] : depthsOf(entry)) {
      const up = depth === 0 ? '\\./' : `(?:\\.\\./){${depth}}`;
      const rules = forbidden.map(([other, at]) => ({
        regex: `^${up}${other.endsWith('.ts') ? `${escape(other.replace(/\.ts$/, ''))}\\.js$` : `${escape(other)}/`}`,
        message:
          `${name(entry)} (layer ${layer}) may not import ${name(other)} (layer ${at}${at === layer ? ', the same' : ''}): ` +
          `imports go down the layers only, so move what both need below them. ${ORDER_NOTE}.`,
      }));
      configs.push({
        files: [isFile ? `src/${entry}` : `src/${entry}/${'*/'.repeat(depth - 1)}*.${FILES}`],
        rules: {
          'no-restricted-imports': ['error', { patterns: rules }],
          'no-restricted-syntax': [
            'error',
            // Dynamic imports, which no-restricted-imports does not see. esquery's regular
            // expressions cannot hold a slash: \u002F stands for it.
            ...rules.map(({ regex, message }) => ({
              selector: `ImportExpression > Literal.source[value=/${regex.replaceAll('/', '\\u002F')}/]`,
              message,
            })),
            ...extraSyntax(entry),
          ],
        },
      });
    }
  }
  return configs;
}

// --- Import cycles ---------------------------------------------------------------------------
// The layers keep imports between folders going down; a circle inside a folder (or through
// files of one layer) they cannot see. This rule builds the import graph of src/ once per lint
// run with the TypeScript parser and reports each import that closes a circle. Type-only imports
// (`import type`, or every name marked `type`) are left out, as eslint-plugin-import's no-cycle
// does: they vanish from the JavaScript and cannot make a module run before its dependency.

const options = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };

function importsOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const specifiers = [];
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      if (!typeOnly) specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly =
        node.isTypeOnly ||
        (node.exportClause &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const targets = new Set();
  for (const specifier of specifiers) {
    if (!specifier.startsWith('.')) continue;
    const resolved = ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule;
    if (resolved && !resolved.isExternalLibraryImport) targets.add(resolve(resolved.resolvedFileName));
  }
  return targets;
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

let graph;
/** file -> the files it imports at run time, for every source file of src/. Built once per process. */
function importGraph() {
  graph ??= new Map(sourceFiles(SRC).map((file) => [file, importsOf(file)]));
  return graph;
}

/** The shortest way from `from` back to `to` through the graph, as files, or null. */
function pathBetween(from, to) {
  const imports = importGraph();
  const previous = new Map([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const file = queue.shift();
    if (file === to) {
      const path = [];
      for (let at = file; at !== null; at = previous.get(at)) path.unshift(at);
      return path;
    }
    for (const next of imports.get(file) ?? []) {
      if (!previous.has(next)) {
        previous.set(next, file);
        queue.push(next);
      }
    }
  }
  return null;
}

const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Refuses an import of src/ that closes a circle of run-time imports.' },
    schema: [],
  },
  create(context) {
    const file = resolve(context.filename);
    if (!importGraph().has(file)) return {};
    const check = (node, specifier) => {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const resolved = ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) return;
      const circle = pathBetween(resolve(resolved.resolvedFileName), file);
      if (!circle) return;
      const names = [file, ...circle].map((path) => relative(SRC, path).split(sep).join('/'));
      context.report({
        node,
        message: `This import closes an import circle: ${names.join(' → ')}. Move what both sides need into a module below them.`,
      });
    };
    const typeOnly = (node) =>
      node.importKind === 'type' ||
      node.exportKind === 'type' ||
      (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
    return {
      ImportDeclaration: (node) => typeOnly(node) || check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && !typeOnly(node) && check(node, node.source.value),
      ExportAllDeclaration: (node) => typeOnly(node) || check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

/** Every source file of src/ belongs to a layer: a new folder is placed in LAYERS before it is used. */
const inALayer = {
  meta: { type: 'problem', docs: { description: 'Refuses a file of src/ outside every layer.' }, schema: [] },
  create(context) {
    const path = relative(SRC, resolve(context.filename));
    if (path.startsWith('..')) return {};
    const entry = entryOf(path);
    if (LAYERS.flat().includes(entry)) return {};
    return {
      Program: (node) =>
        context.report({
          node,
          message: `src/${entry} is in no layer: add it to LAYERS in eslint.layers.js, below what imports it and above what it imports (${ORDER_NOTE}).`,
        }),
    };
  },
};

// --- Queries in repositories -----------------------------------------------------------------
// Every query lives in a repository: src/repositories/, a capability's own *-repository.ts file,
// or src/db (migrations, the dialects). Elsewhere a query builder call or Kysely's `sql` tag is
// refused, so "every query is scoped by company" can be checked in one room. Starting a
// transaction (`db.transaction()`) stays with the services: they decide what is one change.

const QUERY_BUILDERS = new Set([
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'replaceInto',
  'mergeInto',
  'selectNoFrom',
  'with',
  'withRecursive',
]);
const QUERY_NOTE =
  'give the repository that owns the table an intent-named method taking the scope (src/repositories/README.md)';

/** Whether a file of src/ may hold queries: the db layer, the repositories, a capability's repository file. */
export function mayHoldQueries(relativePath) {
  const path = relativePath.split(/[\\/]/).join('/');
  return (
    path.startsWith('db/') ||
    path.startsWith('repositories/') ||
    /(?:^|\/)[^/]*-repository\.(ts|mts|js|mjs)$/.test(path)
  );
}

const queriesInRepositories = {
  meta: {
    type: 'problem',
    docs: { description: 'Refuses a query builder or the sql tag outside the repositories and src/db.' },
    schema: [],
  },
  create(context) {
    const path = relative(SRC, resolve(context.filename));
    if (path.startsWith('..') || mayHoldQueries(path)) return {};
    return {
      ImportDeclaration(node) {
        if (node.source.value !== 'kysely' || node.importKind === 'type') return;
        for (const specifier of node.specifiers) {
          if (
            specifier.type === 'ImportSpecifier' &&
            specifier.imported.name === 'sql' &&
            specifier.importKind !== 'type'
          ) {
            context.report({ node: specifier, message: `Kysely's sql tag outside a repository: ${QUERY_NOTE}.` });
          }
        }
      },
      'CallExpression > MemberExpression.callee'(node) {
        const name = node.property.type === 'Identifier' && !node.computed ? node.property.name : null;
        if (name === null || !QUERY_BUILDERS.has(name)) return;
        // `array.with(index, value)` is not a query: Kysely's `with` takes a name and a callback.
        if (
          name === 'with' &&
          node.parent.arguments.length === 2 &&
          node.parent.arguments[1].type !== 'ArrowFunctionExpression' &&
          node.parent.arguments[1].type !== 'FunctionExpression'
        )
          return;
        context.report({ node: node.property, message: `A query (${name}) outside a repository: ${QUERY_NOTE}.` });
      },
    };
  },
};

export const layersPlugin = {
  rules: { 'no-import-cycle': noImportCycle, 'in-a-layer': inALayer, 'queries-in-repositories': queriesInRepositories },
};
