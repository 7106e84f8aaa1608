import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { deletionDate, deletionTime, encodeTrashPath, formatTrashInfo, parseTrashInfo } from '../../../../plugins/files/trash/trash-info.js';

test('Path is URI-escaped byte by byte with / kept, and comes back the same', () => {
  const path = '/home/ana/My Files/rapport été\n100%#?.txt';
  const encoded = encodeTrashPath(path);
  assert.is(encoded, '/home/ana/My%20Files/rapport%20%C3%A9t%C3%A9%0A100%25%23%3F.txt');
  assert.equal(parseTrashInfo(formatTrashInfo({ path, deletionDate: '2026-12-04T10:11:12' })), { path, deletionDate: '2026-12-04T10:11:12' });
});

test('DeletionDate is local time without a zone, and reads back to the same second', () => {
  const at = new Date(2026, 0, 2, 3, 4, 5);
  assert.is(deletionDate(at), '2026-01-02T03:04:05');
  assert.is(deletionTime('2026-01-02T03:04:05'), at.getTime());
  assert.is(deletionTime('yesterday'), null);
});

test('another program\'s file: other groups ignored, a file without the group or a Path refused', () => {
  assert.equal(parseTrashInfo('[Other]\nPath=/x\n[Trash Info]\nDeletionDate=2020-01-01T00:00:00\nPath=/a%20b\n'), { path: '/a b', deletionDate: '2020-01-01T00:00:00' });
  assert.is(parseTrashInfo('Path=/x\n'), undefined);
  assert.is(parseTrashInfo('[Trash Info]\nDeletionDate=2020-01-01T00:00:00\n'), undefined);
  assert.is(parseTrashInfo('[Trash Info]\nPath=/bad%E0%A4%A\n'), undefined);
});

test.run();
