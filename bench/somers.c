/* Baseline for bench/count.sh: a plain single-threaded bitmask N-queens counter that uses only
 * the left-right mirror symmetry (first-row queen in the left half, doubled; the middle column
 * of odd N counted once). Iterative, one mask triple per row.
 * Usage: somers N   -> prints the number of solutions. */
#include <stdio.h>
#include <stdlib.h>

typedef unsigned long long u64;
typedef unsigned int u32;

/* Solutions with the first-row queen on one of the columns in `first`. */
static u64 count_from(int n, u32 first) {
    u32 full = n == 32 ? 0xffffffffu : (1u << n) - 1;
    u32 cols[32], ld[32], rd[32], avail[32];
    u64 total = 0;
    int d = 0;
    cols[0] = 0; ld[0] = 0; rd[0] = 0;
    avail[0] = first;
    for (;;) {
        u32 a = avail[d];
        if (a == 0) {
            if (d == 0) break;
            d--;
            continue;
        }
        u32 bit = a & -a;
        avail[d] = a ^ bit;
        if (d == n - 1) { total++; continue; }
        u32 c = cols[d] | bit, l = (ld[d] | bit) << 1, r = (rd[d] | bit) >> 1;
        u32 f = ~(c | l | r) & full;
        if (f) {
            d++;
            cols[d] = c; ld[d] = l; rd[d] = r; avail[d] = f;
        }
    }
    return total;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: somers N\n"); return 2; }
    int n = atoi(argv[1]);
    if (n < 1 || n > 32) { fprintf(stderr, "N must be from 1 to 32\n"); return 2; }
    u32 half = (1u << (n / 2)) - 1; /* columns 0 .. n/2-1 */
    u64 total = 2 * count_from(n, half);
    if (n % 2 == 1) total += count_from(n, 1u << (n / 2));
    printf("%llu\n", total);
    return 0;
}
