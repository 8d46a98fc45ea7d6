// Tracks: a git base's ref measured commit by commit.
//   #/tracks        every track (base, ref, backend, metric, newest value,
//                   points, change points)
//   #/tracks/ID     its series (uPlot, x = commit order; hover shows the
//                   commit's subject and author), the confirmed change
//                   points as dashed lines (worse or better by the metric's
//                   direction), and links to their bisections; a keyset
//                   page of commits (?before=NEXT: the older page).
import { h, fmt, link, stateBadge, arr, num, cssVar, si } from '../util.js';
import { api } from '../api.js';
import { metricLabel, fmtMetric, higherIsWorse } from '../metrics.js';
import { normTrack, worse } from '../model.js';

const short = (sha) => String(sha ?? '').slice(0, 12);

// "ns/IO (lower is better)": which way a step of the series is worse.
const direction = (metric) => (metric ? metricLabel(metric) + (higherIsWorse(metric) ? ' (lower is better)' : ' (higher is better)') : 'not measured yet');
const fmtVal = (metric, v) => (metric ? fmtMetric(metric, v) : v === null ? '–' : fmt.count(Math.round(v * 100) / 100));
const cnt = (n) => (n === null ? '–' : String(n));

export async function render(ctx) {
	if (ctx.params.length && ctx.params[0]) return renderOne(ctx, ctx.params[0]);
	document.title = 'Tracks · perflab';
	const root = h('div', { id: 'tracks' }, h('h1', null, 'Tracks'));
	ctx.el.appendChild(root);
	const list = arr((await api('/api/v1/tracks')).tracks).map(normTrack);
	if (!list.length) {
		root.appendChild(h('div', { class: 'empty', id: 'tracks-empty' },
			h('strong', null, 'No tracks yet. '),
			'Track a git base commit by commit with ',
			h('code', null, 'perflab track add --base NAME --label L --ref master'), '.'));
		return;
	}
	root.appendChild(h('table', { id: 'tracks-table' },
		h('thead', null, h('tr', null, ['#', 'Label', 'Base', 'Ref', 'Backend', 'Runs', 'Schedule', 'Head', 'Metric', 'Last', 'Points', 'Change points', 'Bisections']
			.map((c, i) => h('th', { class: [0, 5, 9, 10, 11].includes(i) ? 'num' : null }, c)))),
		h('tbody', null, list.map((t) => h('tr', { dataset: { id: t.id } },
			h('td', { class: 'num' }, h('a', { href: link('/tracks/' + t.id) }, String(t.id))),
			h('td', null, h('a', { href: link('/tracks/' + t.id) }, t.label || '(no label)')),
			h('td', null, t.base), h('td', null, t.ref), h('td', null, t.backend),
			h('td', { class: 'num' }, t.runs === null ? '–' : String(t.runs)),
			h('td', null, t.every),
			h('td', { class: 'mono' }, short(t.head)),
			h('td', { class: 'track-metric' }, t.metric ? metricLabel(t.metric) : '–'),
			h('td', { class: 'num track-last' }, t.last ? [fmtVal(t.metric, t.last.value), h('div', { class: 'muted small mono' }, short(t.last.commit))] : '–'),
			h('td', { class: 'num' }, cnt(t.npoints)),
			h('td', { class: 'num' }, cnt(t.nchange)),
			h('td', null, t.bisections.map((b) => h('a', { href: link('/bisections/' + b.id), class: 'bisection-link' }, '#' + b.id + ' ' + b.state + ' '))))))));
}

async function renderOne(ctx, id) {
	document.title = 'Track ' + id + ' · perflab';
	const before = ctx.query.get('before') || '';
	// A keyset page of commits (the daemon's 1000; before, next): the
	// chart and the table show that page.
	const t = normTrack(await api('/api/v1/tracks/' + encodeURIComponent(id), { query: { before } }));
	if (ctx.stale) return;
	const root = h('div', { id: 'track' });
	ctx.el.appendChild(root);
	root.append(
		h('h1', null, 'Track ', String(t.id), ': ', t.label),
		h('p', { class: 'muted', id: 'track-head' },
			t.base + ' ' + t.ref + ' on ' + t.backend + ' · ' + (t.runs ?? '–') + ' runs a commit · ' + t.every +
			' · head ', h('span', { class: 'mono' }, short(t.head)), ' · ', h('a', { href: link('/tracks') }, 'all tracks')),
		h('p', { id: 'track-metric' }, 'Metric: ', h('b', null, direction(t.metric)),
			t.metric ? ' · a change ' + (higherIsWorse(t.metric) ? 'up' : 'down') + ' is worse' : null),
		t.detect && t.detect.minSize !== null ? h('p', { id: 'track-detect', class: 'small muted' },
			'Change points: segments of ' + t.detect.minSize + ' points, p ' + t.detect.maxP +
			(t.detect.migratedFrom ? ' (moved from the old defaults ' + t.detect.migratedFrom.minSize + ' / ' +
				t.detect.migratedFrom.maxP + ' by schema ' + t.detect.migratedFrom.schema + ')' : '')) : '',
		t.pollError ? h('p', { class: 'error', id: 'track-poll-error' }, 'The last poll failed: ' + t.pollError) : '');
	const measured = t.points.filter((p) => p.value !== null);
	const panel = h('div', { class: 'panel' });
	root.appendChild(panel);
	if (!measured.length) {
		panel.appendChild(h('div', { class: 'empty', id: 'track-empty' }, 'No commit measured yet: points appear as their experiments finish.'));
	} else {
		const hover = h('div', { id: 'track-hover', class: 'small' }, h('span', { class: 'muted' }, 'Hover over the series for a commit.'));
		const slot = h('div', { class: 'chart-slot' });
		panel.append(hover, slot);
		const u = commitChart(slot, measured, t.changePoints, hover, t.metric);
		ctx.cleanup.push(() => u.destroy());
	}
	root.appendChild(h('h2', null, 'Change points'));
	root.appendChild(t.changePoints.length ? h('table', { id: 'track-change-points' },
		h('thead', null, h('tr', null, h('th', null, 'Point'), h('th', null, 'Good'), h('th', null, 'Bad'), h('th', { class: 'num' }, 'Change'), h('th', null, 'Direction'), h('th', null, 'State'), h('th', null, 'Bisection'))),
		h('tbody', null, t.changePoints.map((c) => h('tr', { class: worse(t.metric, c.delta) ? 'cp-worse' : null },
			h('td', null, c.index === null ? '–' : '#' + c.index),
			h('td', { class: 'mono' }, short(c.good)), h('td', { class: 'mono' }, short(c.bad)),
			h('td', { class: 'num ' + (worse(t.metric, c.delta) ? 'pos' : c.delta ? 'neg' : '') }, fmt.spct(c.delta)),
			h('td', null, !t.metric || !c.delta ? '–' : worse(t.metric, c.delta) ? 'worse' : 'better'),
			h('td', null, c.confirmed ? 'confirmed' : 'candidate'),
			// why it was bisected or not: its size against the MDE of
			// the bisection's steps on this host (docs/verdicts.md)
			h('td', { class: 'small wrap-anywhere cp-bisect-note' + (c.bisectNote && !c.bisected ? ' muted' : '') },
				c.bisectNote || (c.confirmed ? 'not looked at yet' : '–')))))) :
		h('p', { class: 'muted', id: 'track-no-cp' }, 'No change point detected.'));
	root.appendChild(h('h2', null, 'Bisections'));
	root.appendChild(t.bisections.length ? h('ul', { id: 'track-bisections' }, t.bisections.map((b) => h('li', null,
		h('a', { href: link('/bisections/' + b.id), class: 'bisection-link' }, 'bisection #' + b.id), ' ', stateBadge(b.state),
		b.culprit ? [' culprit ', h('span', { class: 'mono' }, short(b.culprit))] : null))) :
		h('p', { class: 'muted' }, 'No bisection yet: a confirmed change point between commits more than one apart starts one when its size is above what the bisection\'s 5-run steps resolve on this host.'));
	root.appendChild(h('h2', null, 'Commits'));
	if (before || t.next !== null)
		root.appendChild(h('p', { class: 'toolbar', id: 'track-pages' },
			before ? h('a', { href: link('/tracks/' + t.id) }, '← newest commits') : null,
			t.next !== null ? h('a', { href: link('/tracks/' + t.id, { before: t.next }), id: 'older-commits' }, 'older commits →') : null));
	root.appendChild(h('table', { id: 'track-points', class: 'small' },
		h('thead', null, h('tr', null, h('th', null, 'Commit'), h('th', null, 'Subject'), h('th', null, 'Author'), h('th', { class: 'num' }, t.metric ? metricLabel(t.metric) : 'Value'), h('th', null, 'State'), h('th', null, 'Experiment'))),
		h('tbody', null, t.points.map((p) => h('tr', null,
			h('td', { class: 'mono' }, short(p.commit)), h('td', { class: 'wrap-anywhere' }, p.subject), h('td', null, p.author),
			h('td', { class: 'num' }, p.value === null ? '–' : fmtVal(t.metric, p.value)),
			h('td', null, stateBadge(p.state)),
			h('td', null, p.exp === null ? '–' : h('a', { href: link('/experiments/' + p.exp) }, '#' + p.exp)))))));
}

// The series over commit order; the cursor shows the commit in @hover.
function commitChart(el, pts, cps, hover, metric) {
	const xs = pts.map((_, i) => i), ys = pts.map((p) => p.value);
	const line = cssVar('--c-a') || '#2563eb', cpColor = cssVar('--bad') || '#dc2626';
	const unit = metric ? metricLabel(metric) : '';
	const show = (i) => {
		const p = pts[i];
		if (!p) return;
		hover.replaceChildren(h('span', { class: 'mono' }, short(p.commit)), ' ', h('b', null, p.subject),
			' — ', p.author, ' · ', fmtVal(metric, p.value));
	};
	const indexOf = (sha) => pts.findIndex((p) => p.commit === sha);
	const opts = {
		width: Math.max(320, el.clientWidth || 800), height: 260,
		legend: { show: false },
		cursor: { points: { size: 6 } },
		scales: { x: { time: false } },
		series: [{ label: 'commit' }, { label: unit || 'value', stroke: line, width: 1.5, points: { show: true, size: 5 } }],
		axes: [{ splits: () => xs, values: (u, vals) => vals.map((v) => (pts[v] ? short(pts[v].commit).slice(0, 7) : '')) },
			// the label names the unit, the ticks stay short
			{ size: 60, label: unit ? direction(metric) : undefined, labelSize: 24, values: (u, vals) => vals.map((v) => si(v)) }],
		hooks: {
			setCursor: [(u) => { if (u.cursor.idx !== null && u.cursor.idx !== undefined) show(u.cursor.idx); }],
			draw: [(u) => {
				const { top, height } = u.bbox;
				u.ctx.save();
				u.ctx.strokeStyle = cpColor;
				u.ctx.lineWidth = 2 * (window.devicePixelRatio || 1);
				u.ctx.setLineDash([6, 4]);
				for (const c of cps) {
					// between the last good and the first bad commit
					const g = indexOf(c.good), b = indexOf(c.bad);
					const at = g >= 0 && b >= 0 ? (g + b) / 2 : c.index !== null ? c.index - 0.5 : null;
					if (at === null) continue;
					const x = Math.round(u.valToPos(at, 'x', true));
					u.ctx.beginPath(); u.ctx.moveTo(x, top); u.ctx.lineTo(x, top + height); u.ctx.stroke();
				}
				u.ctx.restore();
			}],
		},
	};
	const u = new uPlot(opts, [xs, ys], el);
	el.dataset.changePoints = String(cps.length);
	el.dataset.axis = unit ? direction(metric) : '';
	return u;
}
