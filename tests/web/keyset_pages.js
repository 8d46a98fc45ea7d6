// Description: the Trends and Track pages follow the daemon's keyset
// cursors. Trends: a series of 10050 imported points shows its newest
// page (10000 points, the daemon's page) and "older points" loads the
// page before it through next (the panel then counts all 10050, and its
// first date is the first imported one). Track: a page whose answer has
// next links "older commits" to ?before=NEXT, which asks the daemon for
// before=NEXT and shows that page, with a link back to the newest; the
// last page has no older link. No console errors.
'use strict';
const fs = require('fs');
const path = require('path');
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const start = Date.UTC(2020, 0, 1) / 1000;
	const pts = [];
	for (let i = 0; i < 10050; i++) pts.push({ time: start + i * 3600, value: 1000 + (i % 7) });
	await d.api('POST', '/api/v1/series/import', { json: { name: 'long-history', metric: 'iops', points: pts } });
	const page = await L.newPage(browser, d);
	const asked = [];
	page.on('request', (r) => { if (/\/api\/v1\/(series|tracks)/.test(r.url())) asked.push(r.url()); });

	await L.open(page, d, '/trends');
	await page.waitForSelector('#trends .series canvas');
	const head = () => page.textContent('#trends .series .head');
	let h = await head();
	if (!/10,000 points/.test(h)) throw new Error('newest page: ' + h);
	await page.click('#trends .series .older-points');
	await page.waitForFunction(() => /10,050 points/.test(document.querySelector('#trends .series .head').textContent), null, { timeout: 10000 })
		.catch(async () => { throw new Error('after older points: ' + await head()); });
	h = await head();
	if (!/2020/.test(h.split('→')[0])) throw new Error('the first date is not the first point: ' + h);
	if (await page.$('#trends .series .older-points')) throw new Error('an older-points button on the last page');
	if (!asked.some((u) => /before=\d+/.test(u))) throw new Error('no request with a cursor: ' + asked.join(' '));

	const base = JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/bisect/track.json'), 'utf8'));
	const newest = Object.assign({}, base, { next: 41, points: base.points.slice(1) });
	const older = Object.assign({}, base, { next: null, points: base.points.slice(0, 1) });
	const json = (body) => ({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
	await page.route(/\/api\/v1\/tracks\/1(\?.*)?$/, (r) => r.fulfill(json(/before=41/.test(r.request().url()) ? older : newest)));
	await L.open(page, d, '/tracks/1');
	await page.waitForSelector('#older-commits');
	const rows = () => page.$$eval('#track-points tbody tr', (t) => t.length);
	if (await rows() !== 2) throw new Error('newest page rows: ' + await rows());
	const href = await page.getAttribute('#older-commits', 'href');
	if (!/before=41/.test(href)) throw new Error('older link: ' + href);
	await page.click('#older-commits');
	await page.waitForFunction(() => document.querySelectorAll('#track-points tbody tr').length === 1, null, { timeout: 10000 })
		.catch(async () => { throw new Error('older page rows: ' + await rows()); });
	if (await page.$('#older-commits')) throw new Error('an older link on the last page');
	if (!(await page.$('#track-pages a[href="#/tracks/1"]'))) throw new Error('no link back to the newest page');
	if (!asked.some((u) => /tracks\/1\?before=41/.test(u))) throw new Error('the older page was not asked for: ' + asked.join(' '));
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('ok');
});
