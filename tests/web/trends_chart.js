// Description: the Trends page draws imported series (uPlot canvas has
// pixels), marks the detected change point and links it to its alert, and
// keeps the zoom in the URL (dragging across a chart or a range button sets
// from/to; a reload keeps the zoomed range).
'use strict';
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	if (!(await L.hasEndpoint(d, 'POST', '/api/v1/series/import'))) throw new L.Skip('POST /api/v1/series/import is missing (404/405)');
	const browser = await L.launchBrowser(onCleanup);
	await L.registerHost(d);
	for (let i = 0; i < 2; i++)
		await d.api('POST', '/api/v1/series/import', { json: { name: 'qd128-512b-host' + i, metric: 'iops', points: L.seriesPoints({ seed: 10 + i, step: i ? 0 : -0.05 }) } });
	const page = await L.newPage(browser, d);
	await L.open(page, d, '/trends');
	await page.waitForSelector('#trends .series canvas');
	const n = await page.$$eval('#trends .series', (e) => e.length);
	if (n !== 2) throw new Error('expected 2 series panels, got ' + n);
	const px = await L.canvasPixels(page, '#trends .series');
	if (px < 2000) throw new Error('trend charts are (nearly) empty: ' + px);
	const cps = await page.$$eval('#trends table.change-points tbody tr', (t) => t.map((r) => r.textContent));
	console.log('change points: ' + cps.join(' | '));
	if (!cps.length) throw new Error('the planted -5 % step is not marked');
	if (!(await page.$('#trends table.change-points a[href^="#/alerts?id="]'))) throw new Error('change point not linked to an alert');
	// Drag across the first chart: the zoomed range goes into the URL.
	const box = await (await page.$('#trends .series .u-over')).boundingBox();
	await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
	await page.mouse.down();
	await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
	await page.mouse.up();
	await page.waitForFunction(() => /from=\d+/.test(location.hash) && /to=\d+/.test(location.hash), null, { timeout: 5000 })
		.catch(() => { throw new Error('drag zoom not in URL: ' + page.url()); });
	const spans = await page.evaluate(() => {
		const q = new URLSearchParams(location.hash.split('?')[1]);
		return (q.get('to') - q.get('from')) / 86400;
	});
	if (!(spans > 60 && spans < 100)) throw new Error('drag over 20 % of 400 days should zoom to ~80 days, got ' + spans);
	console.log('ok drag zoom: ' + spans.toFixed(1) + ' days');
	await page.click('text=30 days');
	if (!/from=\d+&to=\d+|to=\d+.*from=\d+|from=\d+.*to=\d+/.test(page.url())) throw new Error('zoom not in URL: ' + page.url());
	const url = page.url();
	await page.reload();
	await page.waitForSelector('#trends .series canvas');
	const span = await page.evaluate(() => {
		const q = new URLSearchParams(location.hash.split('?')[1]);
		return (q.get('to') - q.get('from')) / 86400;
	});
	if (Math.abs(span - 30) > 1) throw new Error('zoom lost on reload: ' + url + ' -> ' + page.url());
	if (page.errors.length) throw new Error(page.errors.join('; '));
	await L.open(page, d, '/trends');
	await page.waitForSelector('#trends .series canvas');
	console.log('ok ' + px + ' px; ' + await L.shot(page, 'trends-two-series'));
});
