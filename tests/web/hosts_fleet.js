// Description: the Hosts page shows the fleet: a host holding a job is
// "busy" with a link to its experiment and the job's phase, an idle host is
// "idle", each with its last heartbeat, backend, labels and hardware facts;
// a host silent for three lease lengths is "offline"; a host with a
// perflab_canary ladder calibration (results ns/IO = 2400 + 3 N) shows the
// fitted cost per unit, R² and a link to the ladder experiment.
'use strict';
const fs = require('fs');
const path = require('path');
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup, { runners: 3 });
	const browser = await L.launchBrowser(onCleanup);
	const busy = await L.registerHost(d, 'qemu-busy', d.keys.runner, ['qemu-icount']);
	await L.registerHost(d, 'nvme-idle', d.keys.runner1, ['nvme-gen4']);
	const id = await L.submitPatch(d, { runs: 1, label: 'qemu-icount' });
	const c = await d.api('POST', '/api/v1/jobs/claim', { key: d.keys.runner, json: { host: busy, wait: 0 } });
	await d.api('POST', '/api/v1/jobs/' + c.json.job_id + '/heartbeat', { key: d.keys.runner, json: { lease: c.json.lease, phase: 'boot', message: 'booting the variant kernel' } });
	const lad = await ladder(d, await L.registerHost(d, 'icount-cal', d.keys.runner2, ['qemu-icount-cal']));
	const page = await L.newPage(browser, d);
	await L.open(page, d, '/hosts');
	await page.waitForSelector('#hosts-table');
	const row = (n) => page.textContent('#hosts-table tr[data-name="' + n + '"]');
	const b = await row('qemu-busy'), i = await row('nvme-idle');
	console.log('busy row: ' + b.replace(/\s+/g, ' '));
	console.log('idle row: ' + i.replace(/\s+/g, ' '));
	if (!/busy/.test(b) || !/experiment #/.test(b) || !/boot/.test(b)) throw new Error('busy host lacks state, experiment or phase');
	if (!(await page.$('#hosts-table tr[data-name="qemu-busy"] a[href="#/experiments/' + id + '"]'))) throw new Error('no link to the experiment');
	if (!/idle/.test(i) || !/nvme-gen4/.test(i)) throw new Error('idle host lacks state or label');
	if (!/QEMU Virtual CPU/.test(b) || !/2 CPUs/.test(b) || !/2\.0 GiB/.test(b) || !/s ago/.test(b)) throw new Error('facts or heartbeat missing: ' + b);
	if (!/not calibrated/.test(i)) throw new Error('an uncalibrated host should say so');
	const l = (await row('icount-cal')).replace(/\s+/g, ' ');
	console.log('ladder row: ' + l);
	// 3 ns per unit over a 2400 ns/IO control is +0.125 % per unit.
	const m = /([+-][0-9.]+) %\/unit\s*R² ([0-9.]+)/.exec(l);
	if (!m || Math.abs(parseFloat(m[1]) - 0.125) > 0.002 || parseFloat(m[2]) < 0.99) throw new Error('ladder fit not shown: ' + l);
	if (!(await page.$('#hosts-table tr[data-name="icount-cal"] .ladder-fit a[href="#/experiments/' + lad + '"]'))) throw new Error('no link to the ladder experiment');
	if (!/–/.test(await page.textContent('#hosts-table tr[data-name="nvme-idle"] td:last-child'))) throw new Error('an uncalibrated host shows a ladder');
	// Noise at the icount level (~0.0006 % here) must not print as 0.00 %.
	if (/ 0\.00 %/.test(l) || !/0\.000[0-9]+ %/.test(l)) throw new Error('tiny noise/MDE not shown with significant digits: ' + l);
	if (!/3 hosts: /.test(await page.textContent('#fleet-summary'))) throw new Error('fleet summary');
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('ok ' + await L.shot(page, 'hosts-fleet'));

	// A host not heard from for 3 lease lengths is offline (lease 1 s here).
	const d2 = await L.startDaemon(onCleanup, { args: ['--lease-seconds', '1'] });
	await L.registerHost(d2, 'gone-host', d2.keys.runner);
	await L.sleep(4500);
	const p2 = await L.newPage(browser, d2);
	await L.open(p2, d2, '/hosts');
	const g = await (await p2.waitForSelector('#hosts-table tr[data-name="gone-host"]')).textContent();
	if (!/offline/.test(g)) throw new Error('a silent host is not offline: ' + g.replace(/\s+/g, ' '));
	if (p2.errors.length) throw new Error(p2.errors.join('; '));
	console.log('ok offline: ' + g.replace(/\s+/g, ' ').slice(0, 80));
});

// A canary ladder (N = 0, 4, 16; 2 runs) pinned to @host, its jobs answered
// with ns/IO = 2400 + 3 N through the runner protocol. Returns its id.
async function ladder(d, host) {
	const patch = fs.readFileSync(path.join(L.TOP, 'kernel-patches/0004-block-perflab_canary-calibration-parameter.patch'), 'utf8');
	const r = await d.api('POST', '/api/v1/calibrations', { key: d.keys.submit, json: { host, kind: 'ladder', steps: [0, 4, 16], runs: 2, patch } });
	for (;;) {
		const c = await d.api('POST', '/api/v1/jobs/claim', { key: d.keys.runner2, json: { host, wait: 0 }, ok: [200, 204] });
		if (c.status === 204) break;
		const n = Number(/perflab_canary=(\d+)/.exec(c.json.variant.cmdline)[1]);
		const ns = 2400 + 3 * n + 0.001 * c.json.run_index;
		const bench = L.benchJSON({ iops: 1e9 / ns, seed: c.json.job_id });
		Object.assign(bench.summary, { ns_per_io: ns, ios_measured: 100000 });
		bench.params.ios = 100000;
		await d.api('POST', '/api/v1/jobs/' + c.json.job_id + '/result', { key: d.keys.runner2, ok: [201], json: { lease: c.json.lease, bench } });
	}
	for (let i = 0; i < 50; i++) {
		const e = await d.api('GET', '/api/v1/experiments/' + r.json.id, { key: d.keys.submit });
		if (e.json.state === 'done') return r.json.id;
		await L.sleep(100);
	}
	throw new Error('the ladder did not finish');
}

