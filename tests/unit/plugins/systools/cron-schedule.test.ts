import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { describeSchedule, parseSchedule, ScheduleError, splitEntry } from '../../../../plugins/systools/cron/cron-schedule.js';

const reads = (schedule: string) => describeSchedule(parseSchedule(schedule));

test('schedules read in words: weekdays, steps, lists, ranges, month and day names, @ words', () => {
  const cases: [string, string][] = [
    ['0 3 * * 1-5', 'every weekday at 03:00'],
    ['0 3 * * MON-FRI', 'every weekday at 03:00'],
    ['0 3 * * *', 'every day at 03:00'],
    ['*/15 * * * *', 'every 15 minutes'],
    ['* * * * *', 'every minute'],
    ['5 * * * *', 'every hour at minute 5'],
    ['0,30 * * * *', 'every hour at minutes 0 and 30'],
    ['0 */2 * * *', 'every 2 hours on the hour'],
    ['0 6,18 * * *', 'every day at 06:00 and 18:00'],
    ['30 9 * * mon,fri', 'every Monday and Friday at 09:30'],
    ['0 22 * * sat,sun', 'every Saturday and Sunday at 22:00'],
    ['0 0 * * 7', 'every Sunday at 00:00'],
    ['0 9-17 * * 1-5', 'on the hour, during hours 09 to 17, every weekday'],
    ['*/5 1-5,7 1,15 jan-jun mon-fri', 'every 5 minutes, during hours 01 to 05 and 07, on days 1 and 15 of the month or on weekdays in January to June'],
    ['*/10 * * * sat,sun', 'every 10 minutes, every Saturday and Sunday'],
    ['0 0 1 * *', 'on day 1 of the month at 00:00'],
    ['0 4 1,15 * 5', 'on days 1 and 15 of the month or on Friday at 04:00'],
    ['0 12 */2 * *', 'every 2nd day of the month at 12:00'],
    ['10 2 * 1-3 *', 'every day at 02:10 in January to March'],
    ['0 0 1 jan *', 'on day 1 of the month at 00:00 in January'],
    ['@reboot', 'once, when cron starts (at boot)'],
    ['@daily', 'every day at 00:00'],
    ['@HOURLY', 'every hour, on the hour'],
  ];
  for (const [schedule, words] of cases) assert.is(reads(schedule), words, schedule);
});

test('a schedule cron would refuse is refused with the field at fault', () => {
  const cases: [string, RegExp][] = [
    ['61 * * * *', /minute field has 61: it must be from 0 to 59/],
    ['0 24 * * *', /hour field has 24/],
    ['0 0 0 * *', /day of month field has 0: it must be from 1 to 31/],
    ['0 0 * 13 *', /month field has 13/],
    ['0 3 * * 8', /day of week field has 8: it must be from 0 to 7/],
    ['0 3 * foo *', /month field has "foo"/],
    ['0 3 * * mon-funday', /day of week field has "funday"/],
    ['*/0 * * * *', /step "\/0"/],
    ['5-2 * * * *', /runs backwards/],
    ['* * *', /five fields .* has 3/],
    ['* * * * * *', /has 6/],
    ['@weekdays', /not a schedule word/],
    ['1,,2 * * * *', /expected a value, a range a-b, or \*/],
  ];
  for (const [schedule, message] of cases) {
    assert.throws(() => parseSchedule(schedule), (err: Error) => err instanceof ScheduleError && message.test(err.message), schedule);
  }
});

test('an entry splits into its schedule and the rest of the line as the command', () => {
  const e = splitEntry('0 3 * * 1-5  /usr/local/bin/backup --all  # nightly');
  assert.is(e.schedule.text, '0 3 * * 1-5');
  assert.is(e.command, '/usr/local/bin/backup --all  # nightly');
  const r = splitEntry('@reboot\tsleep 60 && start-thing');
  assert.is(r.schedule.special, '@reboot');
  assert.is(r.command, 'sleep 60 && start-thing');
});

test.run();
