// Hosts: fleet state (idle / busy / offline), current job, last heartbeat,
// hardware facts, per-host noise and MDE from A/A calibration.
import { h, clear, fmt, link, stateBadge, arr, toUnix, num } from '../util.js';

import { metricLabel } from '../metrics.js';
import { api } from '../api.js';
import { normHost } from '../model.js';
import { errorBox } from '../widgets.js';

const OFFLINE_AFTER = 180;	// seconds without contact

function stateOf(x) {
	if (x.state) return x.state;
	const seen = toUnix(x.lastSeen);
	if (seen === null || Date.now() / 1000 - seen > OFFLINE_AFTER) return 'offline';
	return x.currentJob ? 'busy' : 'idle';
}

export async function render(ctx) {
	document.title = 'Hosts · perflab';
	const root = h('div', { id: 'hosts' });
	ctx.el.appendChild(root);
	root.appendChild(h('h1', null, 'Hosts'));
	const body = h('div');
	root.appendChild(body);
	async function load() {
		let list;
		try {
			list = arr((await api('/api/v1/hosts')).hosts).map(normHost);
		} catch (e) {
			clear(body).appendChild(errorBox(e));
			return;
		}
		if (ctx.stale) return;
		clear(body);
		if (!list.length) {
			body.appendChild(h('div', { class: 'empty', id: 'hosts-empty' },
				h('strong', null, 'No test hosts have registered. '),
				'Start a runner on a test machine: ', h('code', null, 'perflab-runner --server URL --key RUNNER_KEY --backend qemu-icount --name NAME --label LABEL'),
				' (an admin creates the key with ', h('code', null, 'perflabd key create --role runner NAME'), ').'));
			return;
		}
		const counts = {};
		for (const x of list) counts[stateOf(x)] = (counts[stateOf(x)] || 0) + 1;
		body.appendChild(h('p', { class: 'muted', id: 'fleet-summary' }, list.length + ' hosts: ' + Object.entries(counts).map(([k, v]) => v + ' ' + k).join(', ')));
		body.appendChild(h('table', { id: 'hosts-table' },
			h('thead', null, h('tr', null, h('th', null, 'Host'), h('th', null, 'State'), h('th', null, 'Current job'), h('th', null, 'Last heartbeat'),
				h('th', null, 'Backend / labels'), h('th', null, 'Hardware'), h('th', { class: 'num' }, 'Noise'), h('th', { class: 'num' }, 'MDE'), h('th', { class: 'num' }, 'Canary ladder'))),
			h('tbody', null, list.map((x) => {
				const j = x.currentJob;
				const f = x.facts;
				return h('tr', { dataset: { name: x.name } },
					h('td', null, h('b', null, x.name)),
					h('td', null, stateBadge(stateOf(x))),
					h('td', null, j ? [j.experimentId !== null ? h('a', { href: link('/experiments/' + j.experimentId) }, 'experiment #' + j.experimentId) : null,
						' job ' + (j.id ?? ''), j.phase ? ' · ' + j.phase : '', j.variant ? ' · ' + j.variant : ''] : h('span', { class: 'muted' }, '–')),
					h('td', { class: 'nowrap', title: fmt.time(x.lastSeen) }, fmt.ago(x.lastSeen)),
					h('td', null, x.backend || '–', x.labels.length ? h('div', { class: 'muted small' }, x.labels.join(', ')) : null),
					h('td', { class: 'small' },
						h('div', null, f.cpu || 'CPU unknown', f.cpus ? ' · ' + f.cpus + ' CPUs' : '', f.mem ? ' · ' + fmt.bytes(f.mem) : ''),
						h('div', { class: 'muted' }, [f.nvme && 'NVMe ' + f.nvme + (f.fw ? ' fw ' + f.fw : ''), f.kernel && 'kernel ' + f.kernel,
							f.poll === undefined || f.poll === null ? null : f.poll ? 'polling ok' : 'no polled IO'].filter(Boolean).join(' · '))),
					h('td', { class: 'num', title: 'run-to-run stddev of A/A run means, % of mean' }, x.calibration.length
						? x.calibration.map((c) => h('div', null, fmt.pctSig(c.noise), h('span', { class: 'muted small' }, ' ' + metricLabel(c.metric))))
						: x.noise !== null ? fmt.pctSig(x.noise) : h('span', { class: 'muted', title: 'run an A/A (calibration) experiment on this host' }, 'not calibrated')),
					h('td', { class: 'num', title: 'minimum detectable effect at the calibration run count' }, x.calibration.length
						? x.calibration.map((c) => h('div', null, fmt.pctSig(c.mde) + (c.runs ? ' at ' + c.runs + ' runs' : ''), h('span', { class: 'muted small' }, ' ' + fmt.ago(c.computed))))
						: x.mde !== null ? fmt.pctSig(x.mde) + (x.mdeRuns ? ' at ' + x.mdeRuns + ' runs' : '') : '–'),
					ladderCell(x.ladder));
			}))));
	}
	await load();
	let timer = null;
	ctx.onEvent((ev) => {
		if (/host|job/.test(ev.event)) { clearTimeout(timer); timer = setTimeout(load, 300); }
	});
	const iv = setInterval(load, 15000);
	ctx.cleanup.push(() => { clearInterval(iv); clearTimeout(timer); });
}

// The newest perflab_canary dose-response fit: cost of one
// canary unit, linearity, and the MDE expressed in canary units.
function ladderCell(l) {
	if (!l)
		return h('td', { class: 'num muted', title: 'run a ladder calibration: perflab calibrate --ladder' }, '–');
	const slope = l.slope, r2 = l.r2, mde = l.mdeUnits;
	return h('td', { class: 'num ladder-fit', title: 'slope of the delta against N, its R², and the MDE in canary units' },
		h('div', null, (slope === null ? '?' : (slope >= 0 ? '+' : '') + slope.toFixed(4)) + ' %/unit'),
		h('div', { class: 'muted small' }, 'R² ' + (r2 === null ? '?' : r2.toFixed(4)) +
			(mde === null ? '' : ' · MDE ' + mde.toFixed(3) + ' units')),
		l.experimentId !== null ? h('a', { class: 'small', href: link('/experiments/' + l.experimentId) }, 'experiment #' + l.experimentId) : null);
}

