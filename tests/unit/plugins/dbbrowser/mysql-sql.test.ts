// The pure parts of the MariaDB/MySQL engine: the timeout setting per server, and result column type names.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mysqlError } from '../../../../plugins/dbbrowser/mysql-engine.js';
import { MYSQL_SYSTEM_SCHEMAS, mysqlTimeoutSetting, typeNameOf } from '../../../../plugins/dbbrowser/mysql-sql.js';

test('MariaDB gets max_statement_time in seconds, MySQL max_execution_time in ms; never zero (which means none)', () => {
  assert.is(mysqlTimeoutSetting(true, 1500), 'max_statement_time = 1.500');
  assert.is(mysqlTimeoutSetting(false, 1500), 'max_execution_time = 1500');
  assert.is(mysqlTimeoutSetting(true, 0), 'max_statement_time = 0.001');
  assert.is(mysqlTimeoutSetting(false, 0.2), 'max_execution_time = 1');
});

test('type names come from the protocol codes; unknown codes give none', () => {
  assert.is(typeNameOf(3), 'long');
  assert.is(typeNameOf(246), 'newdecimal');
  assert.is(typeNameOf(253), 'var_string');
  assert.is(typeNameOf(undefined), null);
  assert.is(typeNameOf(9999), null);
});

test('the server\'s own databases are the ones left out', () => {
  assert.equal([...MYSQL_SYSTEM_SCHEMAS].sort(), ['information_schema', 'mysql', 'performance_schema', 'sys']);
});

test('server errors map to the browser\'s codes: read-only, timeouts, login, and the rest as the server\'s own', () => {
  const err = (errno: number, sqlMessage = 'm') => mysqlError(Object.assign(new Error(sqlMessage), { errno, sqlMessage }), 1000);
  assert.is(err(1792).code, 'VIGIL_ERR_DBBROWSER_READ_ONLY');
  assert.match(err(1792).message, /error 1792/);
  for (const n of [1969, 3024, 1317]) assert.is(err(n).code, 'VIGIL_ERR_DBBROWSER_TIMEOUT', String(n));
  assert.match(err(1969).message, /1000 ms/);
  assert.is(err(1045).code, 'VIGIL_ERR_DBBROWSER_UNREACHABLE');
  assert.is(err(1064, 'You have an error in your SQL syntax').code, 'VIGIL_ERR_DBBROWSER_QUERY_FAILED');
  assert.is(mysqlError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })).code, 'VIGIL_ERR_DBBROWSER_UNREACHABLE');
});

test.run();
