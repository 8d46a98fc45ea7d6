// Description: the Tracks and Bisection pages render the documented API
// shapes (tests/fixtures/bisect/*.json, served through request
// interception so the pages are tested apart from the daemon's track
// code): #/tracks lists the track with a link to it and to its bisection;
// #/tracks/1 draws the series (canvas pixels), hovering a point shows
// that commit's sha, subject and author, the change point is marked and
// listed, and subjects with markup stay text; #/bisections/7 shows every
// step (commit, runs, delta, CI, MDE with its significant digits,
// verdict, its decision: reproduced/skipped/good/bad), names the metric
// and the step's direction, and the culprit with its numbers and its
// exact perf diff link; no console errors.
'use strict';
const fs = require('fs');
const path = require('path');
const L = require('./lib/lib.js');

const FX = path.join(__dirname, '../fixtures/bisect');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const page = await L.newPage(browser, d);
	const track = fs.readFileSync(path.join(FX, 'track.json'), 'utf8');
	const bis = fs.readFileSync(path.join(FX, 'bisection.json'), 'utf8');
	const json = (body) => ({ status: 200, contentType: 'application/json', body });
	await page.route(/\/api\/v1\/tracks$/, (r) => r.fulfill(json('{"tracks": [' + track + ']}')));
	await page.route(/\/api\/v1\/tracks\/1$/, (r) => r.fulfill(json(track)));
	await page.route(/\/api\/v1\/bisections\/7$/, (r) => r.fulfill(json(bis)));
	await page.route(/\/api\/v1\/experiments\/24\/perf-diff/, (r) => r.fulfill(json('{"kind": "samples", "rows": []}')));

	await L.open(page, d, '/tracks').catch((e) => { throw new Error(e.message + ' ' + page.errors.join('; ')); });
	const rows = await page.$$eval('#tracks-table tbody tr', (t) => t.map((r) => r.textContent));
	if (rows.length !== 1 || !/randread-4k/.test(rows[0]) || !/qemu-icount/.test(rows[0])) throw new Error('track list: ' + rows.join(' | '));
	if (!(await page.$('#tracks-table a[href="#/tracks/1"]'))) throw new Error('no link to the track');
	if (!(await page.$('#tracks-table a[href="#/bisections/7"]'))) throw new Error('no link to the bisection');

	await L.open(page, d, '/tracks/1');
	await page.waitForSelector('#track canvas');
	const px = await L.canvasPixels(page, '#track');
	if (px < 1000) throw new Error('track chart is (nearly) empty: ' + px);
	const box = await (await page.$('#track .u-over')).boundingBox();
	await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
	await page.waitForFunction(() => /bbbb00001111/.test(document.getElementById('track-hover').textContent), null, { timeout: 5000 })
		.catch(async () => { throw new Error('hover: ' + await page.textContent('#track-hover')); });
	const hover = await page.textContent('#track-hover');
	if (!/block: canary on by default/.test(hover) || !/Jane Dev/.test(hover)) throw new Error('hover lacks subject/author: ' + hover);
	await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
	await page.waitForFunction(() => /ffff00001111/.test(document.getElementById('track-hover').textContent), null, { timeout: 5000 });
	if (await page.$('#track-hover b b, #track-points b')) throw new Error('a subject\'s markup became HTML');
	const cps = await page.$$eval('#track-change-points tbody tr', (t) => t.map((r) => r.textContent));
	if (cps.length !== 1 || !/aaaa00001111/.test(cps[0]) || !/bbbb00001111/.test(cps[0]) || !/−3\.10 %/.test(cps[0]) || !/confirmed/.test(cps[0]))
		throw new Error('change points: ' + cps.join(' | '));
	if ((await page.getAttribute('#track .chart-slot', 'data-change-points')) !== '1') throw new Error('change point not drawn');
	if (!(await page.$('#track-bisections a[href="#/bisections/7"]'))) throw new Error('no bisection link on the track');
	const shotTrack = await L.shot(page, 'track');

	await page.click('#track-bisections a[href="#/bisections/7"]');
	await page.waitForSelector('#bisection-steps');
	const steps = await page.$$eval('#bisection-steps tbody tr', (t) => t.map((r) => Array.from(r.cells).map((c) => c.textContent)));
	if (steps.length !== 4) throw new Error('expected 4 steps, got ' + steps.length);
	const [s1, s2, s3, s4] = steps;
	const want = (row, i, re, what) => { if (!re.test(row[i])) throw new Error(what + ': ' + JSON.stringify(row)); };
	want(s1, 1, /^ffff00001111$/, 'step 1 commit');
	want(s1, 2, /^block: <b>bold<\/b> & more$/, 'markup kept as text');
	want(s2, 4, /skipped/, 'skipped state');
	want(s1, 10, /^reproduced$/, 'the first step reproduced');
	want(s2, 10, /^skipped$/, 'skipped mark');
	want(s2, 6, /^–$/, 'no delta for a skipped step');
	want(s3, 6, /^\+0\.00 %$/, 'good step delta');
	want(s3, 10, /^good$/, 'good mark');
	want(s3, 8, /^0\.00040 %$/, 'a tiny MDE keeps its digits');
	want(s4, 5, /^3$/, 'runs');
	want(s4, 6, /^−3\.08 %$/, 'bad step delta');
	want(s4, 7, /^\[−3\.12 %, −3\.04 %\]$/, 'CI');
	want(s4, 8, /^0\.020 %$/, 'MDE');
	want(s4, 9, /^regression$/, 'verdict');
	want(s4, 10, /^bad$/, 'bad mark');
	const metric = await page.textContent('#bisection-metric');
	if (!/^Metric: IOPS \(higher is better\) · the step is a regression \(−3\.10 %\) · culprit found$/.test(metric))
		throw new Error('metric and direction: ' + metric);
	const culprit = await page.textContent('#culprit-commit');
	if (culprit !== 'bbbb000011112222333344445555666677778888') throw new Error('culprit: ' + culprit);
	const numbers = await page.textContent('#culprit-numbers');
	if (!/−3\.08 %/.test(numbers) || !/\[−3\.12 %, −3\.04 %\]/.test(numbers) || !/0\.020 %/.test(numbers) || !/regression/.test(numbers))
		throw new Error('culprit numbers: ' + numbers);
	if ((await page.getAttribute('#culprit-perfdiff', 'href')) !== '#/experiments/24/perf-diff') throw new Error('no perf diff link');
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('ok ' + px + ' px; ' + shotTrack + ' ' + await L.shot(page, 'bisection'));
});
