import fs from 'node:fs';
import path from 'node:path';
import { CATALOG_SQL, type CatalogColumn, databaseModule } from '../src/db/database-codegen';
import { query, testDatabaseInfo, withDatabase } from './support/databases';

/**
 * src/db/database.ts, which types the repositories' rows, is what the migrations make: generated
 * here from the template database global setup has just migrated with migrations/. With
 * LABDESK_WRITE_DB_TYPES=1 (`npm run db:types`) the test writes the file instead of comparing.
 */
const FILE = path.resolve(__dirname, '..', 'src', 'db', 'database.ts');

test('src/db/database.ts matches a freshly migrated database', async () => {
  const { adminUrl, template } = testDatabaseInfo();
  const columns = await query<CatalogColumn>(withDatabase(adminUrl, template), CATALOG_SQL);
  expect(columns.map((c) => c.table_name)).toContain('trajectories');
  const generated = databaseModule(columns);
  if (process.env.LABDESK_WRITE_DB_TYPES === '1') fs.writeFileSync(FILE, generated);
  const committed = fs.existsSync(FILE) ? fs.readFileSync(FILE, 'utf8') : '';
  // On failure: a migration changed the schema; run `npm run db:types` and commit src/db/database.ts.
  expect(committed).toBe(generated);
});

test('every column type of the migrated database has a TypeScript type, and a new one fails the generation', () => {
  const column = (udt_name: string): CatalogColumn => ({
    table_name: 't',
    column_name: 'c',
    udt_name,
    is_nullable: 'NO',
    defaulted: false,
  });
  expect(databaseModule([column('int8')])).toContain('  c: Int8;');
  expect(() => databaseModule([column('tsvector')])).toThrow('t.c: no TypeScript type for PostgreSQL type tsvector');
});
