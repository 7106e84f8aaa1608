import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { planVerb, type VerbSettings } from '../../../../plugins/privilege/verbs.js';

const settings: VerbSettings = {
  aptOptions: ['Dir::Etc::sourcelist=/tmp/x.list'], captureDir: '/var/lib/vigil/captures', user: 'vigil', ownPid: 4242,
  readStartTime: async (pid) => (pid === 77 ? '1234' : null),
};

const refused = (verb: string, args: string[], reason: RegExp): void => {
  try {
    planVerb(verb as never, args, settings);
  } catch (err) {
    assert.is((err as { code: string }).code, 'VIGIL_ERR_PRIVILEGE_ARGUMENT', `${verb} ${args.join(' ')}`);
    assert.match((err as Error).message, reason);
    return;
  }
  assert.unreachable(`${verb} ${JSON.stringify(args)} was accepted`);
};

test('apt verbs: no prompts, progress on stdout, the configured options, the package as one argument', () => {
  const plan = planVerb('package-upgrade', ['apt', 'libc6:amd64'], settings);
  assert.is(plan.program, 'apt-get');
  assert.equal(plan.argv.slice(-4), ['-y', 'install', '--only-upgrade', 'libc6:amd64']);
  assert.ok(plan.argv.includes('APT::Status-Fd=1'));
  assert.ok(plan.argv.includes('Dir::Etc::sourcelist=/tmp/x.list'));
  assert.is(plan.env.DEBIAN_FRONTEND, 'noninteractive');
  assert.is(plan.lock, 'packages');
  assert.equal(planVerb('package-remove', ['dnf', 'vim-enhanced'], settings).argv, ['-y', 'remove', 'vim-enhanced']);
  assert.equal(planVerb('package-upgrade-all', ['pacman'], settings).argv, ['-Syu', '--noconfirm']);
  assert.equal(planVerb('package-upgrade', ['flatpak', 'org.gnome.Maps'], settings).argv, ['update', '-y', '--noninteractive', 'org.gnome.Maps']);
});

test('package names: never an option, never two arguments, never a shell', () => {
  refused('package-upgrade', ['apt', '-oAPT::Get::AllowUnauthenticated=1'], /not a package name/);
  refused('package-upgrade', ['apt', 'a b'], /not a package name/);
  refused('package-upgrade', ['apt', '$(id)'], /not a package name/);
  refused('package-upgrade', ['apt', 'x'.repeat(129)], /not a package name/);
  refused('package-upgrade', ['apt'], /takes <manager> <package>/);
  refused('package-upgrade-all', ['apt', 'extra'], /takes <manager>/);
  refused('package-refresh', ['yum'], /package manager must be one of/);
});

test('tcpdump-capture: bounded count and seconds, a file name in the capture folder, written as Vigil\'s user', () => {
  const plan = planVerb('tcpdump-capture', ['lo', '100', '30', 'cap-1.pcap'], settings);
  assert.equal(plan.argv, ['-i', 'lo', '-c', '100', '-w', '/var/lib/vigil/captures/cap-1.pcap', '-U', '-n', '-Z', 'vigil']);
  assert.is(plan.timeoutMs, 30_000);
  assert.is(plan.endsAtLimit, true);
  refused('tcpdump-capture', ['lo', '100', '3601', 'a.pcap'], /time limit/);
  refused('tcpdump-capture', ['lo', '1000001', '5', 'a.pcap'], /packet count/);
  refused('tcpdump-capture', ['lo', '1e3', '5', 'a.pcap'], /packet count/);
  refused('tcpdump-capture', ['-w/etc/x', '1', '5', 'a.pcap'], /not an interface name/);
  refused('tcpdump-capture', ['lo', '1', '5', '.hidden.pcap'], /ending in .pcap/);
  refused('tcpdump-capture', ['lo', '1', '5', 'a/b.pcap'], /ending in .pcap/);
  // A filter is the expression after `--`, never an option, in the expression language's characters only.
  assert.equal(planVerb('tcpdump-capture', ['lo', '5', '5', 'a.pcap', 'tcp port 443 and (host 10.0.0.1)'], settings).argv.slice(-2), ['--', 'tcp port 443 and (host 10.0.0.1)']);
  refused('tcpdump-capture', ['lo', '1', '5', 'a.pcap', '-w /etc/passwd'], /expression language/);
  refused('tcpdump-capture', ['lo', '1', '5', 'a.pcap', 'tcp; rm -rf /'], /expression language/);
  refused('tcpdump-capture', ['lo', '1', '5', 'a.pcap', 'port 1', 'x'], /takes <interface>/);
});

test('smartctl-health, firewall-rules: devices under /dev, tools from a list', () => {
  assert.equal(planVerb('smartctl-health', ['/dev/nvme0n1'], settings).argv, ['-H', '-i', '-j', '/dev/nvme0n1']);
  planVerb('smartctl-health', ['/dev/disk/by-id/ata-Samsung_SSD_870_S5'], settings);
  refused('smartctl-health', ['/dev/../etc/shadow'], /not a disk device/);
  refused('smartctl-health', ['/dev/disk/by-id/../../sda'], /not a disk device/);
  assert.equal(planVerb('firewall-rules', ['nftables'], settings).argv, ['list', 'ruleset']);
  refused('firewall-rules', ['toString'], /the tool must be one of/);
});

test('kill: a PID in range, never Vigil\'s own, a listed signal; the start time is checked at the last moment', async () => {
  assert.equal(planVerb('kill', ['77', 'KILL'], settings).argv, ['-s', 'KILL', '77']);
  refused('kill', ['4242', 'TERM'], /does not signal itself/);
  refused('kill', ['0', 'TERM'], /from 2 to/);
  refused('kill', ['-1', 'TERM'], /whole number/);
  refused('kill', ['77', '9'], /signal must be one of/);
  refused('kill', ['77', 'TERM', 'abc'], /start time/);
  await planVerb('kill', ['77', 'TERM', '1234'], settings).precheck!();
  try {
    await planVerb('kill', ['77', 'TERM', '1235'], settings).precheck!();
    assert.unreachable('a changed start time passed');
  } catch (err) {
    assert.is((err as { code: string }).code, 'VIGIL_ERR_PRIVILEGE_PROCESS_CHANGED');
  }
});

test('a name that is not a verb is refused', () => {
  refused('bash', ['-c', 'id'], /is not a verb/);
  refused('__proto__', [], /is not a verb/);
});


test('systemctl-unit: a fixed action and one unit name after --, never an option or a second unit', () => {
  const plan = planVerb('systemctl-unit', ['restart', 'nginx.service'], settings);
  assert.is(plan.program, 'systemctl');
  assert.equal(plan.argv, ['restart', '--no-pager', '--', 'nginx.service']);
  assert.equal(planVerb('systemctl-unit', ['enable', 'getty@tty1.service'], settings).argv.slice(-1), ['getty@tty1.service']);
  assert.equal(planVerb('systemctl-unit', ['disable', 'apt-daily.timer'], settings).argv[0], 'disable');
  refused('systemctl-unit', ['mask', 'nginx.service'], /action must be one of start, stop, restart, enable, disable/);
  refused('systemctl-unit', ['start', '--root=/tmp.service'], /not a unit name/);
  refused('systemctl-unit', ['start', 'nginx'], /not a unit name/);
  refused('systemctl-unit', ['start', 'a b.service'], /not a unit name/);
  refused('systemctl-unit', ['start', '$(id).service'], /not a unit name/);
  refused('systemctl-unit', ['start'], /takes <action> <unit>/);
  refused('systemctl-unit', ['start', 'a.service', 'b.service'], /takes <action> <unit>/);
});

test.run();
