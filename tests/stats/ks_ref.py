#!/usr/bin/env python3
# Independent reference for tests/unit/stats-ks.c: the exact two-sample
# Kolmogorov-Smirnov tail P(D >= k / (n1 n2)) by counting lattice paths in
# Python's exact integers (no floating point until the final division).
# Usage: ks_ref.py n1 n2 d  -> prints P(D >= d) with 17 digits.
import sys
from fractions import Fraction
from math import comb


def ks_tail(n1, n2, d):
    d = Fraction(d).limit_denominator(10 ** 9)
    lim = d * n1 * n2          # paths must keep |i n2 - j n1| < lim
    u = [0] * (n2 + 1)
    for i in range(n1 + 1):
        for j in range(n2 + 1):
            if abs(i * n2 - j * n1) >= lim:
                u[j] = 0
            elif i == 0 and j == 0:
                u[j] = 1
            else:
                u[j] = (u[j] if i else 0) + (u[j - 1] if j else 0)
    return 1 - Fraction(u[n2], comb(n1 + n2, n1))


if __name__ == "__main__":
    n1, n2 = int(sys.argv[1]), int(sys.argv[2])
    print("%.17g" % float(ks_tail(n1, n2, Fraction(sys.argv[3]))))
