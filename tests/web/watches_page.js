// Description: the list-watch pages. #/watches lists a watch with its
// counts and a link to it; #/watches/1, fed the JSON a real perflabd
// served in tests/api/watches.sh (tests/fixtures/mail/watch.json), shows
// the series v2 in the same row as v1, right of it (versions side by
// side), each with its state, experiment link, the base it used and how,
// its reply's status, and a link to its thread on the archive's web when
// the inbox is an https URL (the cover's Message-ID, <> stripped); the
// refused messages with their reasons; no stray "null"; no console errors.
'use strict';
const fs = require('fs');
const path = require('path');
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const page = await L.newPage(browser, d);
	const w = JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/mail/watch.json'), 'utf8'));
	w.inbox = 'https://lore.kernel.org/linux-block';
	const v2 = w.series.find((s) => s.version === 2);
	v2.reply = { status: 'sent', note: null, message_id: '<perflab-series-7-1@lab.test>', rcpts: 'ann@example.org,list@example.org', attempts: 1, at: 1796236500, archived: true };
	const list = { watches: [Object.assign({}, w, { nseries: w.series.length, nmessages: w.log.length })] };
	delete list.watches[0].series;
	delete list.watches[0].log;
	const json = (body) => ({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
	await page.route(/\/api\/v1\/watches$/, (r) => r.fulfill(json(list)));
	await page.route(/\/api\/v1\/watches\/1$/, (r) => r.fulfill(json(w)));
	const want = (got, re, what) => { if (!re.test(got)) throw new Error(what + ': ' + JSON.stringify(got)); };

	await L.open(page, d, '/watches').catch((e) => { throw new Error(e.message + ' ' + page.errors.join('; ')); });
	const rows = await page.$$eval('#watches-table tbody tr', (t) => t.map((r) => Array.from(r.cells).map((c) => c.textContent)));
	if (rows.length !== 1) throw new Error('watch list: ' + JSON.stringify(rows));
	want(rows[0].join('|'), /^1\|blk\|dfn:block\/ OR .*\|g master\|7\|16\|/, 'list row');
	if (!(await page.$('#watches-table a[href="#/watches/1"]'))) throw new Error('no link to the watch');

	await L.open(page, d, '/watches/1');
	await page.waitForSelector('#watch-series');
	const chain = await page.$$eval('#watch-series > tbody > tr', (t) => t.map((r) =>
		Array.from(r.querySelectorAll('td.watch-version')).map((c) => c.dataset.id)));
	const v1 = w.series.find((s) => s.key === '<v1-0@example.org>#v1');
	const row = chain.find((c) => c.includes(String(v1.id)));
	if (!row || row.join(',') !== v1.id + ',' + v2.id) throw new Error('v1 then v2 in one row: ' + JSON.stringify(chain));
	if (chain.length !== w.series.length - 1) throw new Error('one row per chain: ' + JSON.stringify(chain));
	const cell = async (id) => page.textContent('td.watch-version[data-id="' + id + '"]');
	want(await cell(v2.id), new RegExp('^v2 queued 2 patches.*experiment #' + v2.experiment_id + '.*g@[0-9a-f]{12} \\(base-commit\\).*reply: sent.*thread: <v2-0@example\\.org>$'), 'v2 cell');
	want(await cell(v1.id), /\(ref-head\)/, 'v1 base');
	const href = await page.getAttribute('td.watch-version[data-id="' + v2.id + '"] a.thread-link', 'href');
	if (href !== 'https://lore.kernel.org/linux-block/v2-0%40example.org/') throw new Error('thread link: ' + href);
	if (!(await page.$('td.watch-version[data-id="' + v2.id + '"] a[href="#/experiments/' + v2.experiment_id + '"]'))) throw new Error('no experiment link');
	const refused = await page.$$eval('#watch-refused tbody tr', (t) => t.map((r) => r.textContent));
	want(refused.join('\n'), /b64-1@example\.org.*a base64-encoded body/, 'refused base64');
	want(refused.join('\n'), /over the 1048576-byte limit/, 'refused huge');
	if (/\bnull\b|undefined/.test(await page.textContent('#watch'))) throw new Error('the page prints null/undefined');
	if (page.errors.length) throw new Error('console errors: ' + page.errors.join('; '));
});
