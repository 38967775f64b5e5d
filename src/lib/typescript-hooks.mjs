// Module hooks that let a worker thread run the TypeScript sources directly, as the
// tests do (vitest runs src/ without building it). `./x.js` next to a `.ts` file resolves to
// `./x.ts`, and a `.ts` file is transpiled on load (types removed, nothing else; the sources are
// written to allow that: isolatedModules, verbatimModuleSyntax). The built service never loads
// this file: its workers are the compiled .js entries (worker-pool.ts).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let ts;

export async function resolve(specifier, context, nextResolve) {
  if (context.parentURL?.endsWith('.ts') && specifier.startsWith('.') && specifier.endsWith('.js')) {
    const candidate = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
    if (existsSync(fileURLToPath(candidate))) return { url: candidate.href, shortCircuit: true, format: 'module' };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.endsWith('.ts')) return nextLoad(url, context);
  ts ??= (await import('typescript')).default;
  const source = readFileSync(fileURLToPath(url), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    fileName: fileURLToPath(url),
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2023,
      verbatimModuleSyntax: true,
      sourceMap: false,
    },
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}
