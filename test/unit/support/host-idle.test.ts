import t from 'tap';
import { cpuTimes, HostIdle, idleShare } from '../../support/host-idle.js';

const STAT = (idle: number, iowait: number, user: number) => `cpu  ${user} 0 100 ${idle} ${iowait} 0 5 0 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\nintr 1 2 3\n`;

t.test('the all-CPU line of /proc/stat: idle and I/O wait against every field', async (t) => {
  t.same(cpuTimes(STAT(800, 50, 1000)), { idle: 850, total: 1000 + 100 + 800 + 50 + 5 });
  t.throws(() => cpuTimes('intr 1 2\n'), /no cpu line/);
});

t.test('the idle share between two readings', async (t) => {
  t.equal(idleShare(cpuTimes(STAT(800, 50, 1000)), cpuTimes(STAT(1100, 50, 1100))), 300 / 400);
  t.equal(idleShare(cpuTimes(STAT(800, 50, 1000)), cpuTimes(STAT(800, 50, 1400))), 0, 'all busy');
  t.equal(idleShare(cpuTimes(STAT(800, 50, 1000)), cpuTimes(STAT(800, 50, 1000))), undefined, 'no time passed');
});

t.test("this host's reading is a share between 0 and 1", async (t) => {
  const idle = new HostIdle();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const share = idle.sinceLastLook();
  t.ok(share !== undefined && share >= 0 && share <= 1, `read ${share}`);
});
