// Description: the Tracks pages label values with the track's metric
// (label and format of the daemon's metric table, GET /api/v1/metric-defs)
// and mark a change point worse or better by that metric's direction: a
// list entry of metric ns_per_io with npoints/last shows "ns/IO", the
// newest value as "1234.57 ns/IO" and the counts; the track page says
// "ns/IO (lower is better)", heads the value column and the chart axis
// with it, and calls the +3 % step worse and the -2 % step better; the
// same track as iops calls the -3.10 % step worse; each change point's
// bisection column shows the MDE gate's note (muted when not bisected),
// and the change-point options say when schema 17 moved them off the old
// defaults; no stray "null" text; no console errors.
'use strict';
const fs = require('fs');
const path = require('path');
const L = require('./lib/lib.js');

const FX = path.join(__dirname, '../fixtures/bisect');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const page = await L.newPage(browser, d);
	const base = JSON.parse(fs.readFileSync(path.join(FX, 'track.json'), 'utf8'));
	const ns = Object.assign({}, base, { metric: 'ns_per_io',
		detect: { min_size: 5, max_p: 0.001, migrated_from: { min_size: 3, max_p: 0.05, schema: 17 } },
		points: base.points.map((p, i) => Object.assign({}, p, { value: [1200.5, 1236.04, 1234.567][i] })),
		change_points: [Object.assign({}, base.change_points[0], { delta_pct: 3.0,
			bisect_note: 'step 3 % is below what 5-run steps resolve on this host (MDE 4.1 % at alpha 0.0079): not bisected', bisect_mde_pct: 4.1 }),
			{ id: 5, index: 2, good: base.points[1].commit, bad: base.points[2].commit, delta_pct: -2.0, confirmed: false }] });
	const iops = Object.assign({}, base, { id: 2, metric: 'iops' });
	const listed = (t, n, last) => {
		const o = Object.assign({}, t, { npoints: n, nchange_points: t.change_points.length, last });
		delete o.points; delete o.change_points;
		return o;
	};
	const list = { tracks: [listed(ns, 3, { commit: base.points[2].commit, value: 1234.567, t: 1764600200 }), listed(iops, 3, { commit: base.points[2].commit, value: 98099.75, t: 1764600200 })] };
	const json = (body) => ({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
	await page.route(/\/api\/v1\/tracks$/, (r) => r.fulfill(json(list)));
	await page.route(/\/api\/v1\/tracks\/1$/, (r) => r.fulfill(json(ns)));
	await page.route(/\/api\/v1\/tracks\/2$/, (r) => r.fulfill(json(iops)));

	await L.open(page, d, '/tracks').catch((e) => { throw new Error(e.message + ' ' + page.errors.join('; ')); });
	const rows = await page.$$eval('#tracks-table tbody tr', (t) => t.map((r) => Array.from(r.cells).map((c) => c.textContent)));
	const head = await page.$$eval('#tracks-table thead th', (t) => t.map((c) => c.textContent));
	const col = (name) => head.indexOf(name);
	if (rows.length !== 2) throw new Error('track list: ' + JSON.stringify(rows));
	const want = (got, re, what) => { if (!re.test(got)) throw new Error(what + ': ' + JSON.stringify(got)); };
	want(rows[0][col('Metric')], /^ns\/IO$/, 'list metric');
	want(rows[0][col('Last')], /^1234\.57 ns\/IOffff00001111$/, 'list newest value');
	want(rows[0][col('Points')], /^3$/, 'list point count');
	want(rows[0][col('Change points')], /^2$/, 'list change point count');
	want(rows[1][col('Metric')], /^IOPS$/, 'list metric (iops)');
	want(rows[1][col('Last')], /^98,100 IOPS/, 'list newest value (iops)');

	await L.open(page, d, '/tracks/1');
	await page.waitForSelector('#track canvas');
	want(await page.textContent('#track-metric'), /ns\/IO \(lower is better\).*up is worse/, 'track metric');
	if (/^null|\bnull\b/.test(await page.textContent('#track'))) throw new Error('the page prints "null"');
	want(await page.getAttribute('#track .chart-slot', 'data-axis'), /^ns\/IO \(lower is better\)$/, 'axis label');
	const th = await page.$$eval('#track-points thead th', (t) => t.map((c) => c.textContent));
	if (!th.includes('ns/IO')) throw new Error('value column: ' + th.join(', '));
	const vals = await page.$$eval('#track-points tbody tr', (t) => t.map((r) => r.cells[3].textContent));
	want(vals.join('|'), /^1200\.50 ns\/IO\|1236\.04 ns\/IO\|1234\.57 ns\/IO$/, 'point values');
	const cps = await page.$$eval('#track-change-points tbody tr', (t) => t.map((r) => [r.className, r.cells[3].className, r.cells[4].textContent]));
	if (cps.length !== 2 || cps[0][0] !== 'cp-worse' || !/pos/.test(cps[0][1]) || cps[0][2] !== 'worse' ||
	    cps[1][0] === 'cp-worse' || !/neg/.test(cps[1][1]) || cps[1][2] !== 'better')
		throw new Error('ns/IO change point directions: ' + JSON.stringify(cps));
	// the MDE gate's note: why the confirmed one was not bisected (muted),
	// nothing for the candidate
	const notes = await page.$$eval('#track-change-points tbody tr', (t) => t.map((r) => [r.cells[6].textContent, r.cells[6].className]));
	want(notes[0][0], /^step 3 % is below what 5-run steps resolve on this host .*not bisected$/, 'gated note');
	want(notes[0][1], /muted/, 'gated note muted');
	want(notes[1][0], /^–$/, 'candidate: no note');
	want(await page.textContent('#track-detect'), /^Change points: segments of 5 points, p 0\.001 \(moved from the old defaults 3 \/ 0\.05 by schema 17\)$/, 'migrated options');
	const box = await (await page.$('#track .u-over')).boundingBox();
	await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
	await page.waitForFunction(() => /1234\.57 ns\/IO/.test(document.getElementById('track-hover').textContent), null, { timeout: 5000 })
		.catch(async () => { throw new Error('hover: ' + await page.textContent('#track-hover')); });

	await L.open(page, d, '/tracks/2');
	await page.waitForSelector('#track canvas');
	want(await page.textContent('#track-metric'), /IOPS \(higher is better\).*down is worse/, 'iops track metric');
	const cp = await page.$$eval('#track-change-points tbody tr', (t) => t.map((r) => [r.className, r.cells[4].textContent]));
	if (cp.length !== 1 || cp[0][0] !== 'cp-worse' || cp[0][1] !== 'worse') throw new Error('iops change point: ' + JSON.stringify(cp));
	const bisected = await page.$eval('#track-change-points tbody tr', (r) => [r.cells[6].textContent, r.cells[6].className]);
	want(bisected[0], /^step 3\.1 % is above what 5-run steps resolve on this host/, 'bisected note');
	if (/muted/.test(bisected[1])) throw new Error('a bisected note is muted');
	want(await page.textContent('#track-detect'), /^Change points: segments of 5 points, p 0\.001$/, 'options');
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('ok ' + await L.shot(page, 'track-metric'));
});
