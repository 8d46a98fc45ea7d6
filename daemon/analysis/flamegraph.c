// SPDX-License-Identifier: MIT
/*
 * Differential flame graph SVG (see flamegraph.h).
 *
 * The stacks of both profiles are merged into one frame tree; a node keeps
 * its inclusive control and new counts. Children are found through a hash
 * of (parent, name) and laid out in name order, like flamegraph.pl which
 * sorts the folded lines.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/flamegraph.h"

#define FG_MAX_DEPTH 512
#define FG_FRAME_H 16
#define FG_FONT 12
#define FG_XPAD 10
#define FG_MINWIDTH 0.1

struct node {
	const char *name; /* not NUL-terminated: @len bytes */
	int len;
	int parent;
	int first_child, next_sibling;
	uint64_t hash;
	uint64_t new;
	double old; /* scaled control samples */
};

struct tree {
	struct node *n;
	size_t nr, cap;
	uint32_t *slot; /* node index + 1 */
	size_t nslots;
	int max_depth;
};

static uint64_t frame_hash(int parent, const char *s, int len)
{
	uint64_t h = 1469598103934665603ULL;
	int i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	/* mix in the parent, then a murmur3 finaliser for the low bits */
	h ^= (uint64_t)(uint32_t)parent * 0x9e3779b97f4a7c15ULL;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

static int tree_rehash(struct tree *t)
{
	size_t ncap = t->nslots ? t->nslots * 2 : 1024, i;
	uint32_t *s = calloc(ncap, sizeof(*s));

	if (!s)
		return -1;
	for (i = 1; i < t->nr; i++) { /* node 0 is the root */
		size_t j = t->n[i].hash & (ncap - 1);

		while (s[j])
			j = (j + 1) & (ncap - 1);
		s[j] = i + 1;
	}
	free(t->slot);
	t->slot = s;
	t->nslots = ncap;
	return 0;
}

static int tree_add_node(struct tree *t, int parent, const char *name, int len,
			 uint64_t h)
{
	struct node *x;

	if (t->nr == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 1024;
		struct node *nn = realloc(t->n, ncap * sizeof(*nn));

		if (!nn)
			return -1;
		t->n = nn;
		t->cap = ncap;
	}
	x = &t->n[t->nr];
	memset(x, 0, sizeof(*x));
	x->name = name;
	x->len = len;
	x->parent = parent;
	x->hash = h;
	x->first_child = -1;
	x->next_sibling = -1;
	if (parent >= 0) {
		x->next_sibling = t->n[parent].first_child;
		t->n[parent].first_child = t->nr;
	}
	return t->nr++;
}

/* Child @name of @parent, created if missing; -1 when out of memory. */
static int tree_child(struct tree *t, int parent, const char *name, int len)
{
	uint64_t h = frame_hash(parent, name, len);
	size_t j;
	int i;

	if ((t->nr + 1) * 2 > t->nslots && tree_rehash(t))
		return -1;
	for (j = h & (t->nslots - 1); t->slot[j];
	     j = (j + 1) & (t->nslots - 1)) {
		struct node *x = &t->n[t->slot[j] - 1];

		if (x->hash == h && x->parent == parent && x->len == len &&
		    !memcmp(x->name, name, len))
			return t->slot[j] - 1;
	}
	i = tree_add_node(t, parent, name, len, h);
	if (i >= 0)
		t->slot[j] = i + 1;
	return i;
}

static int tree_add(struct tree *t, const char *folded, uint64_t newc,
		    double oldc)
{
	const char *p = folded;
	int cur = 0, depth = 0;

	if (!*folded)
		return 0;
	t->n[0].new += newc;
	t->n[0].old += oldc;
	while (depth < FG_MAX_DEPTH) {
		int len = strcspn(p, ";");

		if (len)
			cur = tree_child(t, cur, p, len);
		else
			cur = tree_child(t, cur, "[unknown]", 9);
		if (cur < 0)
			return -1;
		t->n[cur].new += newc;
		t->n[cur].old += oldc;
		depth++;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (depth > t->max_depth)
		t->max_depth = depth;
	return 0;
}

/* ---- SVG ---------------------------------------------------------------- */

static void xml_escape(FILE *f, const char *s, int len)
{
	int i;

	for (i = 0; i < len; i++) {
		switch (s[i]) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		default:
			/* control characters are not allowed in XML 1.0 */
			if ((unsigned char)s[i] < 0x20)
				fputc('?', f);
			else
				fputc(s[i], f);
		}
	}
}

/* flamegraph.pl color_scale: white, red for more, blue for less. */
static void delta_color(double delta, double maxdelta, int rgb[3])
{
	rgb[0] = rgb[1] = rgb[2] = 255;
	if (maxdelta <= 0)
		return;
	if (delta > 0)
		rgb[1] = rgb[2] = (int)(210 * (maxdelta - delta) / maxdelta);
	else if (delta < 0)
		rgb[0] = rgb[1] = (int)(210 * (maxdelta + delta) / maxdelta);
}

struct layout {
	FILE *f;
	struct tree *t;
	double px_per_sample;
	double maxdelta;
	uint64_t total;
	int height;
};

static int cmp_child(const void *a, const void *b, void *arg)
{
	const struct node *n = arg;
	const struct node *x = &n[*(const int *)a], *y = &n[*(const int *)b];
	int len = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->name, y->name, len);

	return c ? c : x->len - y->len;
}

static void frame_svg(struct layout *l, int i, double x, int depth)
{
	const struct node *n = &l->t->n[i];
	double w = n->new * l->px_per_sample, delta = n->new - n->old;
	double y = l->height - (FG_FONT * 2 + 10) - (depth + 1) * FG_FRAME_H;
	int rgb[3], chars;
	const char *name = i ? n->name : "all";
	int len = i ? n->len : 3;

	delta_color(delta, l->maxdelta, rgb);
	fputs("<g class=\"f\"><title>", l->f);
	xml_escape(l->f, name, len);
	fprintf(l->f, " (%llu samples, %.2f%%; %+.2f%%)</title>",
		(unsigned long long)n->new, n->new * 100.0 / l->total,
		delta * 100.0 / l->total);
	fprintf(l->f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
		"fill=\"rgb(%d,%d,%d)\" rx=\"2\" ry=\"2\"/>",
		x, y, w, FG_FRAME_H - 1, rgb[0], rgb[1], rgb[2]);
	chars = (int)(w / (FG_FONT * 0.59));
	if (chars >= 3) {
		fprintf(l->f, "<text x=\"%.1f\" y=\"%.1f\">", x + 3,
			y + FG_FRAME_H - 5);
		if (len <= chars) {
			xml_escape(l->f, name, len);
		} else {
			xml_escape(l->f, name, chars - 2);
			fputs("..", l->f);
		}
		fputs("</text>", l->f);
	}
	fputs("</g>\n", l->f);
}

static int layout_frames(struct layout *l, int i, double x, int depth)
{
	struct node *n = l->t->n;
	int *kids, nk = 0, c, k;

	if (n[i].new * l->px_per_sample < FG_MINWIDTH)
		return 0;
	frame_svg(l, i, x, depth);
	for (c = n[i].first_child; c >= 0; c = n[c].next_sibling)
		nk++;
	if (!nk)
		return 0;
	kids = malloc(nk * sizeof(*kids));
	if (!kids)
		return -1;
	for (k = 0, c = n[i].first_child; c >= 0; c = n[c].next_sibling)
		kids[k++] = c;
	qsort_r(kids, nk, sizeof(*kids), cmp_child, n);
	for (k = 0; k < nk; k++) {
		if (layout_frames(l, kids[k], x, depth + 1)) {
			free(kids);
			return -1;
		}
		x += n[kids[k]].new * l->px_per_sample;
	}
	free(kids);
	return 0;
}

static void svg_head(FILE *f, const struct fg_opts *o, int width, int height)
{
	fprintf(f,
		"<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<style>text{font-family:Verdana,sans-serif;font-size:%dpx;fill:#000}"
		" .f:hover rect{stroke:#000;stroke-width:0.5}</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f8f8f8\"/>\n",
		width, height, width, height, FG_FONT, width, height);
	fprintf(f,
		"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"%d\">",
		width / 2, FG_FONT * 2, FG_FONT + 5);
	xml_escape(f, o->title, strlen(o->title));
	fputs("</text>\n", f);
	if (o->subtitle) {
		fprintf(f,
			"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">",
			width / 2, FG_FONT * 3 + 2);
		xml_escape(f, o->subtitle, strlen(o->subtitle));
		fputs("</text>\n", f);
	}
}

static int write_svg(FILE *f, struct tree *t, const struct fg_opts *o)
{
	int width = o->width > 100 ? o->width : 1200;
	struct layout l = { .f = f, .t = t, .total = t->n[0].new };
	size_t i;

	l.height = (t->max_depth + 1) * FG_FRAME_H + FG_FONT * 4 + FG_FONT * 2 +
		   10;
	for (i = 0; i < t->nr; i++) {
		double d = fabs(t->n[i].new - t->n[i].old);

		if (d > l.maxdelta)
			l.maxdelta = d;
	}
	svg_head(f, o, width, l.height);
	if (l.total) {
		l.px_per_sample = (double)(width - 2 * FG_XPAD) / l.total;
		if (layout_frames(&l, 0, FG_XPAD, 0))
			return -1;
	} else {
		fprintf(f,
			"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no samples</text>\n",
			width / 2, l.height / 2);
	}
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}

void flamegraph_default_opts(struct fg_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->title = "Differential Flame Graph";
	o->width = 1200;
	o->normalize = 1;
}

static uint64_t sum_samples(const struct fg_stack *s, size_t n)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += s[i].samples;
	return sum;
}

static int build_tree(struct tree *t, const struct fg_stack *control, size_t nc,
		      const struct fg_stack *new, size_t nn, int normalize)
{
	uint64_t tc = sum_samples(control, nc), tn = sum_samples(new, nn);
	double scale = normalize && tc && tn ? (double)tn / tc : 1.0;
	size_t i;

	if (tree_add_node(t, -1, "", 0, 0) < 0 || tree_rehash(t))
		return -1;
	for (i = 0; i < nn; i++)
		if (new[i].folded &&
		    tree_add(t, new[i].folded, new[i].samples, 0))
			return -1;
	for (i = 0; i < nc; i++)
		if (control[i].folded && tree_add(t, control[i].folded, 0,
						  control[i].samples * scale))
			return -1;
	return 0;
}

char *flamegraph_diff_svg(const struct fg_stack *control, size_t nr_control,
			  const struct fg_stack *new, size_t nr_new,
			  const struct fg_opts *o, size_t *len)
{
	struct fg_opts def;
	struct tree t = { 0 };
	char *buf = NULL;
	size_t sz = 0;
	FILE *f = NULL;
	int ret = -1;

	flamegraph_default_opts(&def);
	if (o) {
		def.width = o->width;
		def.normalize = o->normalize;
		def.subtitle = o->subtitle;
		if (o->title)
			def.title = o->title;
	}
	o = &def;
	if (build_tree(&t, control, nr_control, new, nr_new, o->normalize))
		goto out;
	f = open_memstream(&buf, &sz);
	if (!f)
		goto out;
	ret = write_svg(f, &t, o);
	if (fclose(f))
		ret = -1;
out:
	free(t.n);
	free(t.slot);
	if (ret) {
		free(buf);
		return NULL;
	}
	if (len)
		*len = sz;
	return buf;
}
