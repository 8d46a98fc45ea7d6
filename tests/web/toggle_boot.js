// Description: a toggle experiment's page says it is a toggle
// (one kernel, rounds per boot, each variant's runtime settings) and its
// jobs table shows the boot each run came from (the boot id's first 8
// characters and the run's position in that boot), for runs uploaded
// with a boot by a runner that ran a boot of 4 jobs in A B B A order.
'use strict';
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const host = await L.registerHost(d);
	const c = '/sys/module/perflab/parameters/canary';
	const sub = await d.api('POST', '/api/v1/experiments', { key: d.keys.submit, ok: [201], json: {
		title: 'toggle page', runs: 2, max_runs: 2, toggle: true, bench: { runtime: 5, warmup: 1 },
		variants: [{ name: 'off', settings: { [c]: '0' } }, { name: 'on', settings: { [c]: '256' } }] } });
	const id = sub.json.id;
	const claim = await d.api('POST', '/api/v1/jobs/claim', { key: d.keys.runner, json: { host, wait: 0 }, ok: [200] });
	const runs = claim.json.toggle.runs;
	if (runs.length !== 4) throw new Error('one boot should hold 4 runs, got ' + runs.length);
	for (let i = 0; i < runs.length; i++) {
		await d.api('POST', '/api/v1/jobs/' + runs[i].job_id + '/result', { key: d.keys.runner, ok: [201], json: {
			lease: runs[i].lease, bench: L.benchJSON({ seconds: 5, seed: 3 + i }), boot: { id: 'c0ffee12-3456-789a-bcde-f0123456789a', pos: i },
			build: { cache_key: 'k', cached: true, seconds: 0, log: '' }, boot_log: '', timings: { build_s: 0, boot_s: 1, run_s: 5 } } });
	}
	const page = await L.newPage(browser, d);
	await L.open(page, d, '/experiments/' + id);
	const design = await (await page.waitForSelector('#toggle-design', { timeout: 10000 }).catch(async (e) => { throw new Error(e.message + ' errors: ' + page.errors.join('; ') + ' body: ' + (await page.textContent('body')).slice(0, 600)); })).textContent();
	if (!/toggle/.test(design) || !design.includes(c + ' = 256') || !/2 rounds per boot/.test(design)) throw new Error('design: ' + design);
	await page.waitForSelector('#jobs-table td.boot', { timeout: 10000 });
	const boots = await page.$$eval('#jobs-table td.boot', (tds) => tds.map((t) => t.textContent));
	console.log('boots: ' + boots.join(' | '));
	for (let i = 0; i < 4; i++)
		if (!boots.includes('c0ffee12 #' + i)) throw new Error('run at position ' + i + ' of boot c0ffee12 not shown: ' + boots.join(', '));
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('ok ' + await L.shot(page, 'experiment-toggle-boot'));
});
