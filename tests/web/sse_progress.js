// Description: live progress over SSE: with an experiment page open, a
// runner uploading results through the runner protocol moves the progress
// ("N / M runs done") and finally shows the verdict, without a page reload;
// the queue page open in another tab shows the new state and verdict too.
'use strict';
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const host = await L.registerHost(d);
	const id = await L.submitPatch(d, { runs: 2 });
	const page = await L.newPage(browser, d);
	await L.open(page, d, '/experiments/' + id);
	await page.waitForFunction(() => document.getElementById('live').dataset.state === 'live', null, { timeout: 10000 });
	await page.evaluate(() => { window.__noReload = 1; });
	// The queue, open in a second tab, follows too.
	const queue = await L.newPage(browser, d);
	await L.open(queue, d, '/experiments');
	await queue.waitForSelector('#queue-table tr[data-id="' + id + '"]');
	await queue.evaluate(() => { window.__noReload = 1; });
	const text = () => page.textContent('#progress-text');
	if (!/^0 \/ 4/.test(await text())) throw new Error('initial progress: ' + await text());
	// Runs until the queue is empty (an inconclusive verdict adds runs).
	for (let i = 1; ; i++) {
		let job = await L.runOneJob(d, host, d.keys.runner, { seconds: 8 });
		// Queue empty: the analysis may still add runs; wait for it.
		if (!job && i > 4) {
			await L.waitAnalysed(d, id);
			job = await L.runOneJob(d, host, d.keys.runner, { seconds: 8 });
		}
		if (!job) {
			if (i <= 4) throw new Error('no job to claim at step ' + i);
			break;
		}
		await page.waitForFunction((n) => new RegExp('^' + n + ' / ').test(document.getElementById('progress-text').textContent), i, { timeout: 10000 })
			.catch(async () => { throw new Error('progress did not reach ' + i + ' runs done without reload: ' + await text()); });
		console.log('ok ' + await text());
	}
	await page.waitForFunction(() => !/appears when/.test(document.getElementById('verdict').textContent), null, { timeout: 10000 })
		.catch(() => { throw new Error('verdict did not appear live'); });
	if (!(await page.evaluate(() => window.__noReload === 1))) throw new Error('the page reloaded');
	const row = '#queue-table tr[data-id="' + id + '"]';
	await queue.waitForFunction((r) => { const t = document.querySelector(r); return t && /done/.test(t.textContent) && !/no verdict yet/.test(t.textContent); }, row, { timeout: 10000 })
		.catch(async () => { throw new Error('queue row did not follow: ' + await queue.textContent(row)); });
	if (!(await queue.evaluate(() => window.__noReload === 1))) throw new Error('the queue reloaded');
	console.log('queue row: ' + (await queue.textContent(row)).replace(/\s+/g, ' '));
	if (queue.errors.length) throw new Error(queue.errors.join('; '));
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('ok ' + await L.shot(page, 'experiment-live'));
});
