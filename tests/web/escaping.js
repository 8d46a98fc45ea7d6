// Description: text from the API is shown as text, never as markup: a patch
// whose subject, body and diff contain <script>/<img onerror> and a profile
// symbol named like an <img> tag render literally on the experiment and
// perf-diff pages; nothing is injected and no script runs.
'use strict';
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const host = await L.registerHost(d);
	const subject = 'blk-mq: <img src=x onerror=window.__xss=1> & <b>bold</b>';
	const id = await L.submitPatch(d, { runs: 2, subject });
	await L.runAllJobs(d, host, d.keys.runner, { seconds: 6, evil: true });
	const page = await L.newPage(browser, d);
	const injected = () => page.evaluate(() => ({
		xss: window.__xss,
		imgs: document.querySelectorAll('#app img:not(#flame-img)').length,
		bolds: [...document.querySelectorAll('#app b')].filter((b) => b.textContent === 'bold').length,
		scripts: document.querySelectorAll('#app script').length,
	}));
	await L.open(page, d, '/experiments/' + id);
	await page.waitForSelector('#patches pre.patch');
	const h1 = await page.textContent('#experiment h1');
	if (!h1.includes('<img src=x onerror=window.__xss=1>')) throw new Error('subject not shown literally: ' + h1);
	const raw = await page.textContent('#patches pre.patch');
	if (!raw.includes('<script>window.__xss=1</script>')) throw new Error('patch text not shown literally');
	let r = await injected();
	if (r.xss || r.imgs || r.bolds || r.scripts) throw new Error('markup injected on the experiment page: ' + JSON.stringify(r));
	await L.open(page, d, '/experiments');
	await page.waitForSelector('#queue-table');
	r = await injected();
	if (r.xss || r.imgs || r.bolds) throw new Error('markup injected on the queue: ' + JSON.stringify(r));
	if (await L.hasEndpoint(d, 'GET', '/api/v1/experiments/' + id + '/perf-diff')) {
		await L.open(page, d, '/experiments/' + id + '/perf-diff?q=onerror');
		await page.waitForSelector('#perfdiff-table tbody tr');
		const sym = await page.textContent('#perfdiff-table tbody tr td:nth-child(8)');
		if (sym !== '<img src=x onerror=window.__xss=1>') throw new Error('symbol not shown literally: ' + sym);
		if (await L.hasEndpoint(d, 'GET', '/api/v1/experiments/' + id + '/flamegraph.svg?variant=patched')) {
			await page.waitForSelector('#flame-svg', { timeout: 10000 });
			const t = await page.$$eval('#flame-svg title', (ts) => ts.map((x) => x.textContent).filter((x) => x.includes('onerror')));
			if (!t.length) throw new Error('the <img> frame is not in the flame graph as text');
		}
		r = await injected();
		if (r.xss || r.imgs) throw new Error('markup injected on the perf-diff page: ' + JSON.stringify(r));
	}
	await page.waitForTimeout(300);
	if ((await injected()).xss) throw new Error('a script ran');
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('ok: subject, patch text and symbols shown as text');
});
