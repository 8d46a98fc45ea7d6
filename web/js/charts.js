// perflab web: charts. Line charts are uPlot (served from
// /node_modules/uplot/dist/); the strip plot of run means is drawn directly
// on a canvas.
import { h, cssVar, si, variantColor, fmt } from './util.js';

function theme() {
	return {
		fg: cssVar('--fg') || '#1f2328',
		muted: cssVar('--muted') || '#656d76',
		grid: cssVar('--grid') || 'rgba(0,0,0,.08)',
		cp: cssVar('--cp') || '#d97706',
		panel: cssVar('--panel') || '#f6f8fa',
	};
}

function axis(t, label, values) {
	return {
		stroke: t.muted, label, labelSize: 18, labelFont: '12px system-ui, sans-serif',
		font: '11px system-ui, sans-serif',
		grid: { stroke: t.grid, width: 1 }, ticks: { stroke: t.grid, width: 1 },
		values, size: 86,
	};
}

const yValues = (unit) => (u, vals) => vals.map((v) => (v === null ? '' : si(v) + (unit ? ' ' + unit : '')));

function widthOf(el) {
	return Math.max(320, Math.floor(el.getBoundingClientRect().width || el.clientWidth || 800));
}

// Keep charts sized to their container.
const charts = new Set();
let resizeTimer = null;
window.addEventListener('resize', () => {
	clearTimeout(resizeTimer);
	resizeTimer = setTimeout(() => {
		for (const c of charts) {
			if (!c.root.isConnected) { charts.delete(c); continue; }
			c.setSize({ width: widthOf(c.root.parentElement), height: c.height });
		}
	}, 150);
});

/*
 * Per-second samples of every run, runs overlaid, one colour per variant.
 * variants: [{name, runs:[{index, warmup, samples:[{t, iops|ns}]}]}]
 * metric: 'iops' | 'ns'
 */
export function runsChart(el, variants, { metric = 'iops', height = 300 } = {}) {
	const t = theme();
	const key = metric === 'ns' ? 'ns' : 'iops';
	const unit = metric === 'ns' ? 'ns/IO' : 'IOPS';
	let maxT = 0, warmup = 0;
	for (const v of variants) for (const r of v.runs) {
		for (const s of r.samples) if (s.t > maxT) maxT = s.t;
		if (r.warmup > warmup) warmup = r.warmup;
	}
	const xs = Array.from({ length: maxT }, (_, i) => i + 1);
	const data = [xs];
	const series = [{ label: 't', value: (u, v) => (v === null ? '' : v + ' s') }];
	const meta = [];
	variants.forEach((v, vi) => {
		const color = variantColor(vi);
		for (const r of v.runs) {
			const ys = new Array(maxT).fill(null);
			for (const s of r.samples) if (s.t >= 1 && s[key] !== null && s[key] !== undefined) ys[s.t - 1] = s[key];
			data.push(ys);
			series.push({
				label: v.name + ' #' + r.index, stroke: color, width: 1.25,
				points: { show: false }, spanGaps: false,
				value: (u, val) => (val === null ? '–' : fmt.count(Math.round(val), unit)),
			});
			meta.push(vi);
		}
	});
	const readout = h('div', { class: 'legend-inline readout' }, 'Hover the chart for values; drag to zoom, double-click to reset.');
	const legend = h('div', { class: 'legend-inline' }, variants.map((v, vi) =>
		h('span', null, h('span', { class: 'swatch', style: { background: variantColor(vi) } }), v.name + ' (' + v.runs.length + ' runs)')),
		warmup ? h('span', null, 'shaded: warm-up (' + warmup + ' s, dropped)') : null);
	const holder = h('div', { class: 'chart' });
	el.append(legend, holder, readout);
	const opts = {
		width: widthOf(el), height,
		legend: { show: false },
		cursor: { drag: { x: true, y: false }, points: { show: false } },
		scales: { x: { time: false } },
		series,
		axes: [axis(t, 'time into run (s)', (u, vals) => vals.map((v) => v + ' s')), axis(t, unit, yValues(unit))],
		hooks: {
			drawClear: [(u) => {
				if (!warmup) return;
				const x0 = u.valToPos(0.5, 'x', true), x1 = u.valToPos(warmup + 0.5, 'x', true);
				const { top, height: ht, left } = u.bbox;
				u.ctx.save();
				u.ctx.fillStyle = t.grid;
				u.ctx.fillRect(Math.max(left, x0), top, Math.max(0, x1 - Math.max(left, x0)), ht);
				u.ctx.restore();
			}],
			setCursor: [(u) => {
				const i = u.cursor.idx;
				if (i === null || i === undefined) return;
				const parts = ['t = ' + xs[i] + ' s'];
				variants.forEach((v, vi) => {
					const vals = [];
					for (let s = 1; s < data.length; s++) if (meta[s - 1] === vi && data[s][i] !== null) vals.push(data[s][i]);
					if (vals.length) {
						vals.sort((a, b) => a - b);
						parts.push(v.name + ': median ' + fmt.count(Math.round(vals[vals.length >> 1]), unit) + ' over ' + vals.length + ' runs');
					}
				});
				readout.textContent = parts.join(' · ');
			}],
		},
	};
	const u = new uPlot(opts, data, holder);
	u.height = height;
	charts.add(u);
	return u;
}

/*
 * Strip plot: one column per variant, one dot per run mean, a bar at the
 * median. groups: [{name, values:[number]}]
 */
export function stripPlot(el, groups, { unit = 'IOPS', height = 260 } = {}) {
	const t = theme();
	const canvas = h('canvas', { class: 'strip', role: 'img', 'aria-label': 'run means per variant (' + unit + ')' });
	el.appendChild(canvas);
	function draw() {
		const dpr = window.devicePixelRatio || 1;
		const W = Math.min(widthOf(el), 640), H = height;
		canvas.width = Math.round(W * dpr);
		canvas.height = Math.round(H * dpr);
		canvas.style.width = W + 'px';
		canvas.style.height = H + 'px';
		const c = canvas.getContext('2d');
		c.scale(dpr, dpr);
		const all = groups.flatMap((g) => g.values).filter(Number.isFinite);
		const L = 78, R = 12, T = 12, B = 36;
		c.font = '11px system-ui, sans-serif';
		c.fillStyle = t.muted;
		if (!all.length) {
			c.fillText('no finished runs yet', L, H / 2);
			return;
		}
		let lo = Math.min(...all), hi = Math.max(...all);
		const pad = (hi - lo) * 0.15 || Math.abs(hi) * 0.001 || 1;
		lo -= pad; hi += pad;
		const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
		// axis + grid
		c.strokeStyle = t.grid;
		c.lineWidth = 1;
		c.textAlign = 'right';
		c.textBaseline = 'middle';
		for (let i = 0; i <= 4; i++) {
			const v = lo + ((hi - lo) * i) / 4, yy = Math.round(y(v)) + 0.5;
			c.beginPath(); c.moveTo(L, yy); c.lineTo(W - R, yy); c.stroke();
			c.fillText(si(v, 4) + ' ' + unit, L - 6, yy);
		}
		const colW = (W - L - R) / groups.length;
		c.textAlign = 'center';
		c.textBaseline = 'top';
		groups.forEach((g, gi) => {
			const cx = L + colW * (gi + 0.5);
			const color = variantColor(gi);
			c.fillStyle = t.fg;
			c.fillText(g.name + ' (' + g.values.length + ')', cx, H - B + 8);
			c.fillStyle = color;
			c.globalAlpha = 0.75;
			g.values.forEach((v, i) => {
				// deterministic jitter so the picture is stable
				const j = (((i * 2654435761) >>> 0) % 1000) / 1000 - 0.5;
				c.beginPath();
				c.arc(cx + j * Math.min(60, colW * 0.5), y(v), 4, 0, Math.PI * 2);
				c.fill();
			});
			c.globalAlpha = 1;
			const s = g.values.filter(Number.isFinite).sort((a, b) => a - b);
			if (s.length) {
				const m = s.length & 1 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
				c.strokeStyle = color;
				c.lineWidth = 2.5;
				c.beginPath();
				c.moveTo(cx - Math.min(50, colW * 0.4), y(m));
				c.lineTo(cx + Math.min(50, colW * 0.4), y(m));
				c.stroke();
			}
		});
	}
	draw();
	return { canvas, redraw: draw };
}

/*
 * Time series with change points. points: {t:[unix s], v:[value]},
 * changePoints: [{t, delta, alertId}], onZoom(min, max) after user zoom.
 */
export function trendChart(el, title, points, changePoints, { unit = 'IOPS', height = 220, sync = 'trends', range = null, onZoom = null, onPick = null } = {}) {
	const t = theme();
	const holder = h('div', { class: 'chart' });
	el.appendChild(holder);
	const opts = {
		width: widthOf(el), height,
		title: undefined,
		legend: { show: true, live: true },
		cursor: { drag: { x: true, y: false }, sync: { key: sync, setSeries: false }, points: { size: 5 } },
		scales: { x: { time: true } },
		series: [
			{ label: 'date', value: (u, v) => (v === null ? '' : fmt.date(v)) },
			{ label: title, stroke: cssVar('--c-a') || '#2563eb', width: 1.25, points: { show: false },
				value: (u, v) => (v === null ? '–' : fmt.count(Math.round(v), unit)) },
		],
		axes: [axis(t, null), axis(t, unit, yValues(unit))],
		hooks: {
			draw: [(u) => {
				const { top, height: ht, left, width } = u.bbox;
				u.ctx.save();
				u.ctx.strokeStyle = t.cp;
				u.ctx.fillStyle = t.cp;
				u.ctx.lineWidth = 2 * (window.devicePixelRatio || 1);
				u.ctx.setLineDash([6, 4]);
				u.ctx.font = Math.round(11 * (window.devicePixelRatio || 1)) + 'px system-ui, sans-serif';
				for (const cp of changePoints) {
					const x = Math.round(u.valToPos(cp.t, 'x', true));
					if (x < left || x > left + width) continue;
					u.ctx.beginPath(); u.ctx.moveTo(x, top); u.ctx.lineTo(x, top + ht); u.ctx.stroke();
					if (cp.delta !== null && cp.delta !== undefined) u.ctx.fillText(fmt.spct(cp.delta, 1), x + 4, top + 12 * (window.devicePixelRatio || 1));
				}
				u.ctx.restore();
			}],
			setScale: [(u, key) => {
				if (key === 'x' && onZoom && ready) onZoom(u.scales.x.min, u.scales.x.max);
			}],
		},
	};
	let ready = false;
	const u = new uPlot(opts, [points.t, points.v], holder);
	u.height = height;
	if (range && range[0] !== null && range[1] !== null) u.setScale('x', { min: range[0], max: range[1] });
	ready = true;
	if (onPick) {
		u.over.addEventListener('click', (e) => {
			const rect = u.over.getBoundingClientRect();
			const xv = u.posToVal(e.clientX - rect.left, 'x');
			const pxPerS = rect.width / Math.max(1, u.scales.x.max - u.scales.x.min);
			let best = null;
			for (const cp of changePoints) {
				const d = Math.abs(cp.t - xv) * pxPerS;
				if (d < 8 && (!best || d < best.d)) best = { d, cp };
			}
			if (best) onPick(best.cp);
		});
	}
	charts.add(u);
	return u;
}

// Count non-background pixels of a canvas (used by tests and the bench).
export function paintedPixels(canvas) {
	const c = canvas.getContext('2d');
	const d = c.getImageData(0, 0, canvas.width, canvas.height).data;
	let n = 0;
	for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) n++;
	return n;
}
