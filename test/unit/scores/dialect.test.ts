/** How a statement of the score stores' catalogue is written for each database. */
import t from 'tap';
import { POSTGRES, SQLITE } from '../../../src/scores/state/dialect.js';
import { query, render } from '../../../src/scores/state/plan.js';
import { EDUCATION_QUERIES } from '../../../src/scores/state/queries.js';
import { schemaOf } from '../../../src/scores/state/schema.js';

t.test('placeholders: numbered in order for PostgreSQL, left as they are for SQLite; a quoted ? is text', async (t) => {
  const statement = query<[string, string]>("UPDATE t SET a = ?, note = 'why?' WHERE b = ? AND c = '?'");
  t.equal(render(statement, POSTGRES), "UPDATE t SET a = $1, note = 'why?' WHERE b = $2 AND c = '?'");
  t.equal(render(statement, SQLITE), "UPDATE t SET a = ?, note = 'why?' WHERE b = ? AND c = '?'");
});

t.test('classes are found by group on the expressions their indexes are written with, on either database', async (t) => {
  for (const d of [SQLITE, POSTGRES]) {
    const indexed = [...schemaOf(d).matchAll(/CREATE INDEX IF NOT EXISTS classes_by_\w+_group ON classes \((.+)\);/g)].map((match) => match[1] as string);
    t.equal(indexed.length, 2, d.name);
    const lookup = render(EDUCATION_QUERIES.classByGroup, d);
    for (const expression of indexed) t.ok(lookup.includes(`${expression} = `), `${d.name}: ${lookup} compares ${expression}`);
  }
});
