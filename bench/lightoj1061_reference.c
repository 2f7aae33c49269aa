/* A straightforward accepted-style solution of LightOJ 1061 "N Queen Again", used only as the
 * speed reference in bench/repair.sh: the 92 solutions by backtracking, then for each board and
 * each solution a minimum-cost assignment of queens to solution squares by dynamic programming
 * over subsets of queens (cost 0 same square, 1 shared line, 2 otherwise). Blocking is ignored,
 * as in every accepted solution. */
#include <stdio.h>
#include <string.h>

static int sol[92][8], nsol, cols[8];

static void place(int row) {
    if (row == 8) {
        memcpy(sol[nsol++], cols, sizeof cols);
        return;
    }
    for (int c = 0; c < 8; c++) {
        int ok = 1;
        for (int r = 0; r < row; r++)
            if (cols[r] == c || cols[r] - c == r - row || cols[r] - c == row - r) ok = 0;
        if (ok) {
            cols[row] = c;
            place(row + 1);
        }
    }
}

static int dist(int r1, int c1, int r2, int c2) {
    if (r1 == r2 && c1 == c2) return 0;
    if (r1 == r2 || c1 == c2 || r1 - c1 == r2 - c2 || r1 + c1 == r2 + c2) return 1;
    return 2;
}

int main(void) {
    place(0);
    int t;
    if (scanf("%d", &t) != 1) return 1;
    for (int k = 1; k <= t; k++) {
        int qr[8], qc[8], nq = 0;
        char line[64];
        for (int r = 0; r < 8; r++) {
            if (scanf("%63s", line) != 1) return 1;
            for (int c = 0; c < 8; c++)
                if (line[c] == 'q') { qr[nq] = r; qc[nq] = c; nq++; }
        }
        int best = 1 << 30;
        for (int s = 0; s < nsol; s++) {
            int dp[256];
            for (int m = 0; m < 256; m++) dp[m] = 1 << 30;
            dp[0] = 0;
            for (int m = 0; m < 255; m++) {
                int row = __builtin_popcount(m);
                for (int i = 0; i < 8; i++)
                    if (!(m >> i & 1)) {
                        int v = dp[m] + dist(qr[i], qc[i], row, sol[s][row]);
                        if (v < dp[m | 1 << i]) dp[m | 1 << i] = v;
                    }
            }
            if (dp[255] < best) best = dp[255];
        }
        printf("Case %d: %d\n", k, best);
    }
    return 0;
}
