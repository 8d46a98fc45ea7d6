// Bisection: #/bisections/ID. The metric and the step's direction, how it
// ended, a split's two bisections; every step (commit, runs, delta against
// the good end, CI, MDE, verdict, its three-way decision) in the order it ran, the
// culprit with its numbers, links to its experiment, its exact perf diff
// and the report alert, and the top rows of that perf diff.
import { h, fmt, link, stateBadge, verdictBadge } from '../util.js';
import { api } from '../api.js';
import { metricLabel, higherIsWorse } from '../metrics.js';
import { normBisection, perfDiff } from '../model.js';
import { errorBox, totalsSummary, perfDiffTable } from '../widgets.js';

const short = (sha) => String(sha ?? '').slice(0, 12);
// As the experiment page prints it: a tiny MDE keeps two significant
// digits (0.00040 %, not 0.00 %), a zero one is exact.
const mde = (v) => (v === 0 ? '0 (exact)' : fmt.pctSig(v));
const outcomeText = {
	culprit: 'culprit found', range: 'a range of skipped commits', split: 'split: a change each side of a midpoint',
	did_not_reproduce: 'did not reproduce', unknown: 'unknown', not_confirmed: 'not confirmed', failed: 'failed',
};
const callText = { between: 'between (split)', did_not_reproduce: 'did not reproduce', not_confirmed: 'not confirmed' };
const ci = (lo, hi) => (lo === null || hi === null ? '–' : '[' + fmt.spct(lo) + ', ' + fmt.spct(hi) + ']');

export async function render(ctx) {
	const id = ctx.params[0];
	document.title = 'Bisection ' + id + ' · perflab';
	const b = normBisection(await api('/api/v1/bisections/' + encodeURIComponent(id)));
	if (ctx.stale) return;
	const steps = b.steps;
	const c = b.culprit;
	const root = h('div', { id: 'bisection' });
	ctx.el.appendChild(root);
	root.append(
		h('h1', null, 'Bisection ', String(b.id ?? id), ' ', stateBadge(b.state)),
		h('p', { class: 'muted', id: 'bisection-head' },
			b.base, ' ', b.label, ' · good ', h('span', { class: 'mono' }, short(b.good)),
			' · bad ', h('span', { class: 'mono' }, short(b.bad)), ' · step ', fmt.spct(b.stepPct),
			b.trackId !== null ? [' · ', h('a', { href: link('/tracks/' + b.trackId) }, 'track #' + b.trackId)] : null,
			b.parentId !== null ? [' · part of ', h('a', { href: link('/bisections/' + b.parentId) }, 'bisection #' + b.parentId)] : null),
		h('p', { id: 'bisection-metric' }, 'Metric: ', h('b', null, b.metric ? metricLabel(b.metric) +
			(higherIsWorse(b.metric) ? ' (lower is better)' : ' (higher is better)') : 'not measured yet'),
			b.direction ? [' · the step is ', h('b', null, b.direction === 'regression' ? 'a regression' : 'an improvement'),
				' (', fmt.spct(b.stepPct), ')'] : null,
			b.outcome ? [' · ', h('span', { id: 'bisection-outcome' }, outcomeText[b.outcome] || b.outcome)] : null));

	if (b.failure && b.state === 'failed') root.appendChild(h('p', { class: 'error', id: 'bisection-failure' }, 'The bisection failed: ' + b.failure));
	else if (b.failure) root.appendChild(h('p', { class: 'muted', id: 'bisection-note' }, b.failure));
	if (b.children.length) root.appendChild(h('ul', { id: 'bisection-children' }, b.children.map((k) => h('li', null,
		h('a', { href: link('/bisections/' + k.id) }, 'bisection #' + k.id), ' ', stateBadge(k.state), ' ',
		h('span', { class: 'mono' }, short(k.good)), '..', h('span', { class: 'mono' }, short(k.bad)),
		k.culprit ? [' culprit ', h('span', { class: 'mono' }, short(k.culprit))] : k.outcome ? ' ' + (outcomeText[k.outcome] || k.outcome) : null))));
	const cul = h('div', { class: 'panel', id: 'culprit' });
	root.appendChild(cul);
	if (!c) {
		const skipped = steps.filter((s) => s.state === 'skipped').map((s) => short(s.commit));
		cul.appendChild(h('p', null, b.outcome === 'did_not_reproduce' ? 'No culprit: the step between good and bad did not reproduce, so nobody was mailed.' :
			b.outcome === 'split' ? 'No single culprit: a midpoint lay between both ends; the bisections below each look for one.' :
			b.state === 'done' ?
			['No single culprit: every commit in between was skipped', skipped.length ? ' (' + skipped.join(', ') + ')' : '', '.'] :
			'No culprit yet: the bisection is ' + (b.state || 'running') + '.'));
	} else {
		const exp = c.exp;
		cul.append(
			h('h2', null, 'Culprit ', h('span', { class: 'mono', id: 'culprit-commit' }, c.commit)),
			h('p', null, h('b', { id: 'culprit-subject' }, c.subject), ' — ', c.author,
				c.email ? ' <' + c.email + '>' : ''),
			h('p', { id: 'culprit-numbers' }, 'Δ ', h('b', null, fmt.spct(c.delta)), ' · 95 % CI ', ci(c.lo, c.hi),
				' · MDE ', mde(c.mde), ' · ', verdictBadge(c.verdict)),
			h('p', null,
				exp !== null ? [h('a', { href: link('/experiments/' + exp), id: 'culprit-experiment' }, 'experiment #' + exp), ' · ',
					h('a', { href: link('/experiments/' + exp + '/perf-diff'), id: 'culprit-perfdiff' }, 'exact perf diff')] : null,
				c.messageId ? [' · in reply to ', h('span', { class: 'mono' }, c.messageId)] : null,
				b.reportAlertId !== null ? [' · ', h('a', { href: link('/alerts', { id: b.reportAlertId }) }, 'report alert #' + b.reportAlertId)] : null));
		if (exp !== null) {
			const slot = h('div', { id: 'culprit-diff' });
			cul.appendChild(slot);
			api('/api/v1/experiments/' + exp + '/perf-diff').then((res) => {
				const pd = perfDiff(res);
				if (ctx.stale || !pd.rows.length) return;
				slot.append(...[totalsSummary(pd), perfDiffTable(pd, { brief: true, limit: 10 })].filter(Boolean));
			}, (e) => { if (e.status !== 404 && e.status !== 409) slot.appendChild(errorBox(e)); });
		}
	}

	root.appendChild(h('h2', null, 'Steps'));
	root.appendChild(h('table', { id: 'bisection-steps' },
		h('thead', null, h('tr', null, ['#', 'Commit', 'Subject', 'Author', 'State', 'Runs', 'Δ vs good', '95 % CI', 'MDE', 'Verdict', 'Decision', 'Experiment']
			.map((x, i) => h('th', { class: [0, 5, 6, 7, 8].includes(i) ? 'num' : null }, x)))),
		h('tbody', null, steps.map((s, i) => h('tr', { class: 'step step-' + s.mark, dataset: { commit: s.commit } },
			h('td', { class: 'num' }, String(i + 1)),
			h('td', { class: 'mono' }, short(s.commit)),
			h('td', { class: 'wrap-anywhere' }, s.subject), h('td', null, s.author),
			h('td', null, stateBadge(s.state)),
			h('td', { class: 'num' }, s.runs === null ? '–' : String(s.runs)),
			// coloured by the verdict: up is worse for ns/IO, down for IOPS
			h('td', { class: 'num ' + (s.verdict === 'regression' ? 'pos' : s.verdict === 'improvement' ? 'neg' : '') }, fmt.spct(s.delta)),
			h('td', { class: 'num nowrap' }, ci(s.lo, s.hi)),
			h('td', { class: 'num' }, mde(s.mde)),
			h('td', null, s.verdict ? verdictBadge(s.verdict) : '–'),
			h('td', { class: 'step-call' }, s.call ? callText[s.call] || s.call : s.mark),
			h('td', null, s.exp === null ? '–' : h('a', { href: link('/experiments/' + s.exp) }, '#' + s.exp)))))));

	if (b.state === 'running' || b.state === 'queued') {
		const again = setTimeout(() => window.perflab.render(), 15000);
		ctx.cleanup.push(() => clearTimeout(again));
	}
}
