/* A straightforward accepted-style solution of UVa 11214 "Guarding the Chessboard", used only as
 * the speed reference in bench/judges.sh: iterative deepening on the number of queens; each
 * level takes the first unguarded mark and branches over the squares that guard it (the same
 * square, its row, column and diagonals), keeping counters of guarded rows, columns and
 * diagonals. Boards up to 10 x 10 as the judge promises (12 x 12 here for our samples). */
#include <stdio.h>
#include <string.h>

static int n, m, row_[12], col_[12], dg[24], ad[24];
static char mark[12][13];

static int guarded(int r, int c) {
    return row_[r] || col_[c] || dg[r - c + m] || ad[r + c];
}

static int dfs(int left) {
    int ur = -1, uc = -1;
    for (int r = 0; r < n && ur < 0; r++)
        for (int c = 0; c < m; c++)
            if (mark[r][c] == 'X' && !guarded(r, c)) {
                ur = r;
                uc = c;
                break;
            }
    if (ur < 0) return 1;
    if (left == 0) return 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < m; c++) {
            if (!(r == ur || c == uc || r - c == ur - uc || r + c == ur + uc)) continue;
            row_[r]++, col_[c]++, dg[r - c + m]++, ad[r + c]++;
            int ok = dfs(left - 1);
            row_[r]--, col_[c]--, dg[r - c + m]--, ad[r + c]--;
            if (ok) return 1;
        }
    return 0;
}

int main(void) {
    int cs = 0;
    while (scanf("%d", &n) == 1 && n != 0) {
        if (scanf("%d", &m) != 1) return 0;
        for (int r = 0; r < n; r++)
            if (scanf("%12s", mark[r]) != 1) return 0;
        memset(row_, 0, sizeof row_);
        memset(col_, 0, sizeof col_);
        memset(dg, 0, sizeof dg);
        memset(ad, 0, sizeof ad);
        int k = 0;
        while (!dfs(k)) k++;
        printf("Case %d: %d\n", ++cs, k);
    }
    return 0;
}
