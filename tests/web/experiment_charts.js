// Description: the experiment page draws its charts: the uPlot IOPS-over-time
// chart has one series per run in two colours and non-background pixels, the
// strip plot of run means has pixels, the verdict shows delta %, 95 % CI and
// MDE with units, the LKP-style table lists iops, and switching the metric
// to ns/IO redraws the charts with the choice in the URL.
'use strict';
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const lab = await L.populateLab(d, { runs: 4, seconds: 15 });
	const page = await L.newPage(browser, d);
	await L.open(page, d, '/experiments/' + lab.done);
	await page.waitForSelector('#runs-chart canvas');
	await page.waitForSelector('#strip-chart canvas');
	const runsPx = await L.canvasPixels(page, '#runs-chart');
	const stripPx = await L.canvasPixels(page, '#strip-chart');
	console.log('runs chart painted pixels: ' + runsPx + ', strip plot: ' + stripPx);
	if (runsPx < 2000) throw new Error('IOPS chart is (nearly) empty: ' + runsPx + ' painted pixels');
	if (stripPx < 500) throw new Error('strip plot is (nearly) empty: ' + stripPx + ' painted pixels');
	const legend = await page.textContent('#runs-chart .legend-inline');
	// As many runs per variant as the API has (an inconclusive verdict adds runs).
	const e = (await d.api('GET', '/api/v1/experiments/' + lab.done)).json;
	const per = (v) => e.runs.filter((r) => r.variant === v).length;
	if (per('base') < 4 || !legend.includes('base (' + per('base') + ' runs)') || !legend.includes('patched (' + per('patched') + ' runs)'))
		throw new Error('legend does not list the runs per variant (' + per('base') + ', ' + per('patched') + '): ' + legend);
	const series = await page.evaluate(() => document.querySelectorAll('#runs-chart .u-series').length);
	console.log('legend: ' + legend + '; uPlot series: ' + series);
	// Two distinct stroke colours over the run series.
	const colours = await page.evaluate(() => {
		const out = new Set();
		for (const s of document.querySelectorAll('#runs-chart .swatch')) out.add(getComputedStyle(s).backgroundColor);
		return [...out];
	});
	if (colours.length !== 2) throw new Error('expected two variant colours, got ' + colours.join(', '));
	const progress = await page.textContent('#progress-text');
	const total = e.runs.length;
	if (!new RegExp('^' + total + ' / ' + total + ' runs').test(progress)) throw new Error('progress, ' + total + ' runs done: ' + progress);
	const verdict = await page.textContent('#verdict');
	console.log('verdict: ' + verdict.replace(/\s+/g, ' ').slice(0, 300));
	if (/No verdict|appears when/.test(verdict)) throw new Error('a finished experiment shows no verdict: ' + verdict);
	if (!/%/.test(verdict) || !/95 % CI/.test(verdict) || !/MDE/.test(verdict)) throw new Error('verdict lacks delta %, CI or MDE: ' + verdict);
	const lkp = await page.textContent('#lkp');
	if (!/iops/.test(lkp)) throw new Error('LKP table lacks the IOPS line: ' + lkp);
	// The hover readout gives values with units.
	const box = await (await page.$('#runs-chart .u-over')).boundingBox();
	await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
	const readout = await page.textContent('#runs-chart .readout');
	if (!/IOPS/.test(readout) || !/ s/.test(readout)) throw new Error('hover readout lacks units: ' + readout);
	await L.shot(page, 'experiment-charts');
	// ns/IO instead of IOPS: the choice goes into the URL and the charts redraw.
	await page.selectOption('#metric', 'ns');
	await page.waitForFunction(() => /metric=ns/.test(location.hash) && document.querySelector('#runs-chart canvas'), null, { timeout: 10000 });
	await page.waitForFunction(() => document.querySelector('#runs-chart h3').textContent.startsWith('ns/IO'), null, { timeout: 10000 });
	const nsPx = await L.canvasPixels(page, '#runs-chart');
	const axis = await page.textContent('#strip-chart h3');
	if (nsPx < 2000) throw new Error('ns/IO chart is (nearly) empty: ' + nsPx);
	console.log('ns/IO chart painted pixels: ' + nsPx + ' (' + axis + ')');
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('ok ' + await L.shot(page, 'experiment-ns'));
});
