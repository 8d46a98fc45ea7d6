// Description: a patch that does not apply: when the runner reports the
// failure (reason patch_apply with git apply's output), the experiment page
// shows the failed variant, the reason and the tool output as text, and
// the job's whole failure log (beyond the 64 KiB the experiment JSON holds).
'use strict';
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const host = await L.registerHost(d);
	const id = await L.submitPatch(d, { runs: 1, subject: 'blk-mq: a patch against another tree' });
	// Longer than the 64 KiB the experiment JSON carries: the page fetches the rest.
	const log = 'FIRST-LINE of the git apply output\n' + 'checking patch block/blk-mq-tag.c...\n'.repeat(3000) +
		'error: patch failed: block/blk-mq-tag.c:10\nerror: block/blk-mq-tag.c: patch does not apply <stale context>';
	// Claim until the patched variant's job comes; fail it like the runner would.
	for (let i = 0; i < 4; i++) {
		const c = await d.api('POST', '/api/v1/jobs/claim', { key: d.keys.runner, json: { host, wait: 0 }, ok: [200, 204] });
		if (c.status === 204) break;
		const job = c.json;
		if (job.variant.is_control) {
			await d.api('POST', '/api/v1/jobs/' + job.job_id + '/result', { key: d.keys.runner, ok: [200, 201], json: { lease: job.lease, bench: L.benchJSON({ seconds: 5, seed: 3 }), build: { cache_key: 'k', cached: true, seconds: 0, log: '' }, boot_log: '', timings: { build_s: 0, boot_s: 1, run_s: 5 } } });
		} else {
			await d.api('POST', '/api/v1/jobs/' + job.job_id + '/fail', { key: d.keys.runner, json: { lease: job.lease, reason: 'patch_apply', log } });
		}
	}
	const page = await L.newPage(browser, d);
	await L.open(page, d, '/experiments/' + id);
	const box = await page.waitForSelector('#failed-variants', { timeout: 10000 });
	const t = await box.textContent();
	console.log('shown: ' + t.replace(/\s+/g, ' ').slice(0, 200));
	if (!/patched failed: patch_apply/.test(t) || !/does not apply/.test(t) || !t.includes('<stale context>')) throw new Error('failure not shown with the tool output: ' + t);
	const jobs = await page.textContent('#jobs-table');
	if (!/failed/.test(jobs)) throw new Error('the failed job is not listed');
	await page.click('#jobs-table button.failure-log');
	const fl = await (await page.waitForSelector('#failure-log', { timeout: 10000 })).textContent();
	if (!fl.includes('patch does not apply <stale context>')) throw new Error('job failure log: ' + fl.slice(-200));
	if (!fl.startsWith('FIRST-LINE') || fl.length !== log.length) throw new Error('the full failure log (' + log.length + ' bytes) was not shown: ' + fl.length + ' bytes');
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('ok ' + await L.shot(page, 'experiment-failed-variant'));
});
