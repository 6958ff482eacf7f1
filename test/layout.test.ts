import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * One data path per domain: SQL lives only in `src/db/` and the domains' `*.repository.ts` files,
 * as text or built with the typed query builder (`src/db/typed-sql.ts`, on Kysely). This reads
 * every string and template literal of the service's code (comments aside) and fails on any that
 * holds a SQL statement elsewhere, and on any import of the builder elsewhere.
 */

const ROOT = path.resolve(__dirname, '..');
const SQL = /\b(select\b[\s\S]+\bfrom\b|insert\s+into\b|update\s+[a-z_"]+\s+set\b|delete\s+from\b|with\s+[a-z_]+\s+as\s*\()/i;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const allowed = (file: string) => file.startsWith(path.join(ROOT, 'src', 'db') + path.sep) || file.endsWith('.repository.ts');

/** `file:line: text` for each literal that holds SQL. */
function sqlLiterals(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let text: string | undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node)) text = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ? ');
    if (text !== undefined && SQL.test(text)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${path.relative(ROOT, file)}:${line + 1}: ${text.replace(/\s+/g, ' ').slice(0, 80)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('no SQL text outside src/db/ and *.repository.ts', () => {
  const files = [...sourceFiles(path.join(ROOT, 'src')), ...sourceFiles(path.join(ROOT, 'facade'))];
  expect(files.filter((file) => !allowed(file)).flatMap(sqlLiterals)).toEqual([]);
});

/** Whether a file imports the query builder: Kysely itself, or our typed helpers on it. */
const buildsQueries = (file: string) => /from '(kysely|[./]+db\/typed-sql)'/.test(fs.readFileSync(file, 'utf8'));

test('no query built outside src/db/ and *.repository.ts', () => {
  const files = [...sourceFiles(path.join(ROOT, 'src')), ...sourceFiles(path.join(ROOT, 'facade'))];
  expect(files.filter((file) => !allowed(file) && buildsQueries(file)).map((file) => path.relative(ROOT, file))).toEqual([]);
});

test('the checks see SQL where it is allowed (they are not vacuous): every repository holds SQL text or builds queries', () => {
  const repositories = sourceFiles(path.join(ROOT, 'src', 'modules')).filter((file) => file.endsWith('.repository.ts'));
  expect(repositories.length).toBeGreaterThanOrEqual(8);
  expect(repositories.filter((file) => sqlLiterals(file).length > 0).length).toBeGreaterThanOrEqual(8);
  expect(repositories.some(buildsQueries)).toBe(true);
  for (const file of repositories)
    expect({ file: path.relative(ROOT, file), sql: sqlLiterals(file).length > 0 || buildsQueries(file) }).toEqual({
      file: path.relative(ROOT, file),
      sql: true,
    });
});
