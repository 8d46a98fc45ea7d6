// Description: the web UI takes metric names and labels from the table
// perflabd serves (GET /api/v1/metric-defs), not from a list of its own:
// while an experiment runs, the experiment page's LKP table has one line
// per metric of the table that has a direction and that the run reports
// (named as in the table), and
// a finished experiment's verdict panel names the compared metric by the
// table's label.
'use strict';
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const defs = (await d.api('GET', '/api/v1/metric-defs')).json.metrics;
	const directed = defs.filter((m) => m.direction !== 'neutral');
	if (!directed.length) throw new Error('no metric with a direction: ' + JSON.stringify(defs));
	const lab = await L.populateLab(d, { runs: 3, seconds: 8, nsyms: 5 });
	const page = await L.newPage(browser, d);

	// The finished experiment: the verdict panel's heading ends with the label.
	const e = (await d.api('GET', '/api/v1/experiments/' + lab.done)).json;
	const cmp = e.comparison[0];
	const label = defs.find((m) => m.name === cmp.metric).label;
	await L.open(page, d, '/experiments/' + lab.done);
	const h3 = await page.textContent('#verdict h3');
	if (!h3.endsWith(' · ' + label)) throw new Error('verdict heading lacks the label "' + label + '": ' + h3);

	// An experiment with one control run: the page's own LKP table.
	await L.submitPatch(d, { runs: 2, subject: 'metric table' });
	let job;
	do job = await L.runOneJob(d, lab.host);
	while (job && !job.variant.is_control);
	if (!job) throw new Error('no control job to run');
	await L.open(page, d, '/experiments/' + job.experiment_id);
	const lkp = await page.textContent('#lkp');
	console.log(lkp);
	// Every directed metric the run reports, at its path in the API's run.
	const run = (await d.api('GET', '/api/v1/experiments/' + job.experiment_id)).json.runs[0];
	const at = (m) => m.path.split('.').reduce((o, k) => (o && typeof o === 'object' ? o[k] : undefined), run);
	const reported = directed.filter((m) => typeof at(m) === 'number');
	if (reported.length < 2) throw new Error('the run reports too few metrics: ' + JSON.stringify(run));
	for (const m of reported)
		if (!new RegExp('  ' + m.name + '$', 'm').test(lkp)) throw new Error('LKP table lacks ' + m.name + ': ' + lkp);
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('ok: ' + reported.length + ' metrics of the served table in the LKP table, verdict labelled ' + label);
});
