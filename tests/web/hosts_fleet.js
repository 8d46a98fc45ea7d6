// Description: the Hosts page shows the fleet: a host holding a job is
// "busy" with a link to its experiment and the job's phase, an idle host is
// "idle", each with its last heartbeat, backend, labels and hardware facts;
// a host silent for three lease lengths is "offline".
'use strict';
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup, { runners: 2 });
	const browser = await L.launchBrowser(onCleanup);
	const busy = await L.registerHost(d, 'qemu-busy', d.keys.runner, ['qemu-icount']);
	await L.registerHost(d, 'nvme-idle', d.keys.runner1, ['nvme-gen4']);
	const id = await L.submitPatch(d, { runs: 1, label: 'qemu-icount' });
	const c = await d.api('POST', '/api/v1/jobs/claim', { key: d.keys.runner, json: { host: busy, wait: 0 } });
	await d.api('POST', '/api/v1/jobs/' + c.json.job_id + '/heartbeat', { key: d.keys.runner, json: { lease: c.json.lease, phase: 'boot', message: 'booting the variant kernel' } });
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
	if (!/2 hosts: /.test(await page.textContent('#fleet-summary'))) throw new Error('fleet summary');
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
