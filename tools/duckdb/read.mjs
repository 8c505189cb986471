// Reads Parquet with DuckDB and prints the result as one JSON object, so Go
// tests can compare Quarry's files with an independent reader:
//
//   node tools/duckdb/read.mjs FILE.parquet   every row of FILE, in file order,
//                                             plus its key/value metadata
//   node tools/duckdb/read.mjs --sql 'QUERY'  the rows of any query
//
// Output: {"columns": [{"name", "type"}], "rows": [{column: value}],
// "metadata": {key: value} (FILE only)}. Values use @duckdb/node-api's JSON
// conversion: BIGINT as a decimal string (JSON numbers lose precision past
// 2^53), FLOAT and DOUBLE as numbers (shortest round-trip form, so a Go
// reader recovers the exact value), lists as arrays, structs as objects,
// NULL as null. Install the module with scripts/deps/duckdb.sh.
import { DuckDBInstance } from '@duckdb/node-api';

const args = process.argv.slice(2);
let sql;
let file;
if (args.length === 2 && args[0] === '--sql') {
  sql = args[1];
} else if (args.length === 1 && !args[0].startsWith('-')) {
  file = args[0];
} else {
  console.error('usage: node read.mjs FILE.parquet | node read.mjs --sql QUERY');
  process.exit(2);
}

const instance = await DuckDBInstance.create(':memory:');
const conn = await instance.connect();
await conn.run('SET preserve_insertion_order = true');

async function query(text, params) {
  const reader = await conn.runAndReadAll(text, params);
  const names = reader.columnNames();
  const types = reader.columnTypes();
  return {
    columns: names.map((name, i) => ({ name, type: types[i].toString() })),
    rows: reader.getRowObjectsJson(),
  };
}

const out = sql !== undefined
  ? await query(sql)
  : await query('SELECT * FROM read_parquet($1)', [file]);
if (file !== undefined) {
  const kv = await query('SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata($1)', [file]);
  out.metadata = Object.fromEntries(kv.rows.map((r) => [r.k, r.v]));
}
process.stdout.write(JSON.stringify(out));
process.stdout.write('\n');
conn.closeSync();
instance.closeSync();
