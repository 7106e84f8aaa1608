import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { JOB_LINES, JobRegistry } from '../../../../plugins/privilege/job-registry.js';

const result = { ok: true, exit_code: 0, signal: null, timed_out: false, cancelled: false, output: '', output_truncated: false, method: 'root' as const, duration_ms: 5 };

test('output becomes lines as it arrives; a line split across chunks waits for its end', () => {
  const jobs = new JobRegistry();
  const job = jobs.create({ title: 't', verb: 'package-refresh', args: ['apt'], actor: 'a' });
  jobs.append(job, 'Reading package li');
  assert.equal(job.lines, []);
  jobs.append(job, 'sts...\r\nDone\npartial');
  assert.equal(job.lines, ['Reading package lists...', 'Done']);
  jobs.finish(job, result);
  assert.equal(job.lines, ['Reading package lists...', 'Done', 'partial']);
  assert.is(job.state, 'done');
  assert.is(job.progress, 100);
});

test('apt\'s status lines give the progress; a repeated one is kept once', () => {
  const jobs = new JobRegistry();
  const job = jobs.create({ title: 't', verb: 'package-upgrade', args: ['apt', 'x'], actor: 'a' });
  jobs.append(job, 'dlstatus:1:0.0000:Retrieving file 1 of 1\ndlstatus:1:0.0000:Retrieving file 1 of 1\npmstatus:x:40.0000:Installing x\n');
  assert.is(job.lines.length, 2);
  assert.is(job.progress, 40);
  jobs.finish(job, { ...result, ok: false, cancelled: true });
  assert.is(job.state, 'cancelled');
  assert.is(job.progress, 40);
});

test('a job keeps its last lines; `first` counts what was dropped', () => {
  const jobs = new JobRegistry();
  const job = jobs.create({ title: 't', verb: 'package-upgrade-all', args: ['apt'], actor: 'a' });
  jobs.append(job, Array.from({ length: JOB_LINES + 5 }, (_, i) => `line ${i}`).join('\n') + '\n');
  assert.is(job.lines.length, JOB_LINES);
  assert.is(job.first, 5);
  assert.is(job.lines[0], 'line 5');
});

test.run();
