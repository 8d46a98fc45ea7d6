// Description: the experiment page of a queued experiment (no failed
// variant, no verdict yet) prints no stray "null": the header's Times row
// is followed straight by the verdict panel, and the page has no loose
// text node at its top level.
'use strict';
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const id = await L.submitPatch(d, { runs: 2 });
	const page = await L.newPage(browser, d);
	await L.open(page, d, '/experiments/' + id);
	await page.waitForSelector('#experiment #verdict');
	const loose = await page.evaluate(() => [...document.getElementById('experiment').childNodes]
		.filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim()).map((n) => n.textContent));
	if (loose.length) throw new Error('loose text at the top of the experiment page: ' + JSON.stringify(loose));
	// What a reader sees from the Times row down to the verdict panel.
	const between = await page.evaluate(() => {
		const dts = [...document.querySelectorAll('#experiment dl.kv dt')];
		const times = dts.find((x) => x.textContent === 'Times');
		if (!times) return null;
		const r = document.createRange();
		r.setStartBefore(times);
		r.setEndBefore(document.getElementById('verdict'));
		return r.toString();
	});
	console.log('from Times to the verdict: ' + JSON.stringify(between));
	if (between === null) throw new Error('no Times row on the experiment page');
	if (/\bnull\b|\bundefined\b/.test(between)) throw new Error('stray null/undefined under Times: ' + JSON.stringify(between));
	if (!/^Timessubmitted \d{4}-\d\d-\d\d \d\d:\d\d UTC$/.test(between)) throw new Error('unexpected text between Times and the verdict: ' + JSON.stringify(between));
	const text = await page.textContent('#experiment');
	if (/\bnull\b/.test(text)) throw new Error('the page prints "null": ' + text.slice(0, 400));
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('ok');
});
